/**
 * A fake `streamSession` actor for tests of the stream and grid machines: it reports `session.started` (or
 * `session.failed`) a microtask after it starts, answers `session.resume` with `session.resumed`, and logs
 * what it was asked and when it was closed (its clean-up = the real session's stop-stream + pc.close()).
 */
import { fromCallback, type AnyEventObject } from 'xstate';
import type {
  SessionCommand,
  StreamSessionInput,
  StreamStats,
} from '../../../machines/cameras/stream.machine';

export interface FakeSessionOptions {
  /** The start fails (session.failed) with this error. */
  failWith?: () => Error | null;
  /** What resume-stream answers (default true). */
  resumes?: () => boolean;
  /** Never answer the start (a device that does not reply). */
  hang?: boolean;
}

export function fakeStreamSession(options: FakeSessionOptions = {}) {
  const media = {} as MediaStream;
  const log = {
    started: [] as StreamSessionInput[],
    /** streamIds of closed sessions, in order. */
    released: [] as string[],
    held: [] as string[],
    resumed: [] as string[],
    /** session.stats intervals asked (null = off). */
    stats: [] as Array<number | null>,
  };
  const open = new Map<string, (event: AnyEventObject) => void>();
  const actor = fromCallback<SessionCommand, StreamSessionInput>(({ input, sendBack, receive }) => {
    log.started.push(input);
    open.set(input.streamId, sendBack);
    if (!options.hang) {
      queueMicrotask(() => {
        const error = options.failWith?.() ?? null;
        sendBack(
          error
            ? { type: 'session.failed', error }
            : { type: 'session.started', mediaStream: media, resolution: input.resolution },
        );
      });
    }
    receive((command) => {
      if (command.type === 'session.hold') log.held.push(input.streamId);
      else if (command.type === 'session.stats') log.stats.push(command.intervalMs);
      else {
        log.resumed.push(input.streamId);
        const resumed = options.resumes?.() ?? true;
        queueMicrotask(() => sendBack({ type: 'session.resumed', resumed }));
      }
    });
    return () => {
      log.released.push(input.streamId);
      if (open.get(input.streamId) === sendBack) open.delete(input.streamId);
    };
  });
  return {
    actor,
    log,
    media,
    /** The open session of `streamId` reports its end (track ended, pc failed, agent closed it). */
    end: (streamId: string, error: string) => open.get(streamId)?.({ type: 'stream.ended', error }),
    /** The open session of `streamId` reports a stats sample. */
    sample: (streamId: string, stats: StreamStats) => open.get(streamId)?.({ type: 'stats.sample', stats }),
    isOpen: (streamId: string) => open.has(streamId),
  };
}
