/**
 * The logs feature's side effects (machines/logs/): `loadInfo` (log-info) and each logTail's `followLog` (the
 * `log` calls of one log process — a followed log answers 'more' every few seconds and is asked again with
 * its uuid — whose progress batches become log.batch events; stopped early, it sends endLogProcess and
 * abandons the call). Loaded in its own chunk after sign-in (ConsoleFeature.loadActors).
 */
import { fromCallback } from 'xstate';
import { logsMachine, type LogsEvent } from '../../../../machines/logs/logs.machine';
import {
  logTailMachine,
  type FollowLogInput,
  type LogTailEvent,
} from '../../../../machines/logs/logTail.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Platform } from '../feature';
import { logCommands, type LogCommands } from './api';

/** Sim devices only: lines per second asked for every log (the bench sets it on window before opening). */
const simRate = (): number | undefined => {
  const v = (globalThis as { __edgeLogSimRate?: unknown }).__edgeLogSimRate;
  return typeof v === 'number' && v > 0 ? v : undefined;
};

const codeOf = (err: unknown): string =>
  typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'string'
    ? (err as { code: string }).code
    : 'internal_error';
const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The followLog actor over `commands`. */
export function followLogActor(commands: LogCommands) {
  return fromCallback<LogTailEvent, FollowLogInput>(({ input, sendBack }) => {
    const abort = new AbortController();
    let settled = false;
    const onBatch = (batch: { seq: number; lines: string[] }) => {
      if (!settled) sendBack({ type: 'log.batch', seq: batch.seq, lines: batch.lines });
    };
    // A followed log is long-polled: each call answers 'more' and the same uuid is asked again at once.
    const run = async () => {
      for (;;) {
        const end = await commands.follow(
          input.deviceId,
          { ...input, simRate: simRate() },
          onBatch,
          abort.signal,
        );
        if (end.reason !== 'more' || settled) return end;
      }
    };
    run().then(
      (end) => {
        if (settled) return;
        settled = true;
        sendBack({ type: 'log.ended', reason: end.reason, lines: end.lines });
      },
      (err: unknown) => {
        if (settled) return;
        settled = true;
        sendBack({ type: 'log.failed', code: codeOf(err), message: messageOf(err) });
      },
    );
    return () => {
      if (settled) return;
      settled = true;
      // Tell the device first (its reply to `log` is no longer awaited), then drop the call.
      void commands.end(input.deviceId, input.uuid).catch(() => undefined);
      abort.abort();
    };
  });
}

/** The loadInfo actor over `commands`. */
export function loadInfoActor(commands: LogCommands) {
  return fromCallback<LogsEvent, { deviceId: string }>(({ input, sendBack }) => {
    let live = true;
    commands.topics(input.deviceId).then(
      (topics) => {
        if (live) sendBack({ type: 'logs.infoLoaded', deviceId: input.deviceId, topics });
      },
      (err: unknown) => {
        if (live) sendBack({ type: 'logs.infoFailed', deviceId: input.deviceId, message: messageOf(err) });
      },
    );
    return () => {
      live = false;
    };
  });
}

export function logsActors({ peerLink }: Platform): FeatureActor[] {
  const commands = logCommands(peerLink.callDevice.bind(peerLink));
  const logic = logsMachine.provide({
    actors: {
      loadInfo: loadInfoActor(commands),
      logTail: logTailMachine.provide({ actors: { followLog: followLogActor(commands) } }),
    },
  });
  return [featureActor({ systemId: SYSTEM_IDS.logs, logic, onSignOut: [{ type: 'logs.reset' }] })];
}
