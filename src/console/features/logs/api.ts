/**
 * The logs feature's device commands (§7 "Logs and remote control": log, endLogProcess; ours: log-info, §3 Log
 * info) over the peer link, typed by the command registry. Errors reject with DeviceCommandError { code,
 * message }: `not_found` (§8 "No log file found"), `log_changed` (§8 "Log file modified or deleted"), `busy`,
 * `link_closed`, `timeout`.
 */
import { asLogBatch, type LogBatchData } from '../../../../machines/logs/logLines';
import type { LogTopicInfo } from '../../../../machines/logs/logs.machine';
import type { CallDevice } from '../../platform/peerLink';

/** Time allowed without a word from the device while a log runs (each batch, heartbeats too, restarts it), ms. */
export const LOG_SILENCE_MS = 20_000;

export interface FollowRequest {
  uuid: string;
  topic: string;
  subtopic: string;
  count: number;
  follow: boolean;
  /** Sim devices only: lines per second (bench, tests). */
  simRate?: number;
}

export function logCommands(call: CallDevice) {
  return {
    /** log-info → the device's topics with their subtopics. */
    async topics(deviceId: string): Promise<LogTopicInfo[]> {
      return (await call(deviceId, 'log-info', {})).topics;
    },
    /**
     * log → each checked batch to `onBatch` (malformed progress data is dropped) until the log process ends;
     * resolves with its end (lines sent, reason). `signal` abandons the call (the device is told by `end`).
     */
    async follow(
      deviceId: string,
      request: FollowRequest,
      onBatch: (batch: LogBatchData) => void,
      signal?: AbortSignal,
    ): Promise<{ lines: number; reason: string }> {
      const reply = await call(
        deviceId,
        'log',
        {
          uuid: request.uuid,
          topic: request.topic,
          subtopic: request.subtopic,
          count: request.count,
          follow: request.follow,
          ...(request.simRate ? { sim_rate: request.simRate } : {}),
        },
        {
          signal,
          timeoutMs: LOG_SILENCE_MS,
          onProgress: (data) => {
            const batch = asLogBatch(data);
            if (batch && batch.uuid === request.uuid) onBatch(batch);
          },
        },
      );
      return { lines: reply.lines, reason: reply.reason };
    },
    /** endLogProcess → whether the device was following `uuid`. */
    async end(deviceId: string, uuid: string): Promise<boolean> {
      return (await call(deviceId, 'endLogProcess', { uuid })).ended;
    },
  };
}

export type LogCommands = ReturnType<typeof logCommands>;
