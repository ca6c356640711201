import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, SimulatedClock, type AnyActorRef } from 'xstate';
import { FRAME_RATE_INTERVAL_MS } from '../../../src/protocol/constants';
import {
  HIDE_GRACE_MS,
  STREAM_TEXTS,
  streamMachine,
  type RecordingFile,
  type RecordStreamInput,
  type StreamEvent,
  type StreamStats,
} from '../../../machines/cameras/stream.machine';
import { flush, makeCamera, makeDevice } from '../machines/fixtures';
import { fakeStreamSession } from './fakeSession';

const device = makeDevice(1);
const file: RecordingFile = {
  url: 'blob:rec-1',
  bytes: 1234,
  mimeType: 'video/webm;codecs=vp8',
  fileName: 'c.webm',
};
const stats: StreamStats = {
  width: 640,
  height: 480,
  fps: 30,
  bitrateKbps: 900,
  rttMs: 1,
  packetsLost: 0,
  codec: 'VP8',
};

function startStream(options: { startFails?: boolean } = {}) {
  const clock = new SimulatedClock();
  const session = fakeStreamSession({
    failWith: () => (options.startFails ? new Error('inferenceEngineError: no ffmpeg') : null),
  });
  const log = {
    revoked: [] as string[],
    recorders: [] as RecordStreamInput[],
    recorderStopped: 0,
  };
  const machine = streamMachine.provide({
    actors: {
      streamSession: session.actor,
      recordStream: fromCallback<StreamEvent, RecordStreamInput>(({ input }) => {
        log.recorders.push(input);
        return () => {
          log.recorderStopped++;
          // Like MediaRecorder: the file arrives after stop, to the stream actor itself.
          queueMicrotask(() => input.owner.send({ type: 'record.saved', file }));
        };
      }),
    },
    actions: {
      revokeRecording: (_, p) => {
        if (p.url) log.revoked.push(p.url);
      },
    },
  });
  const actor = createActor(machine, {
    clock,
    input: {
      streamId: 's-1',
      deviceId: device.device_id,
      deviceLabel: device.label,
      camera: makeCamera(device.device_id),
    },
  }).start();
  return {
    actor: actor as AnyActorRef & typeof actor,
    log,
    session: session.log,
    fakeMedia: session.media,
    clock,
    sample: (s: StreamStats) => session.sample('s-1', s),
    end: (error: string) => session.end('s-1', error),
  };
}

describe('stream', () => {
  it('plays after the SDP exchange', async () => {
    const { actor, session, fakeMedia } = startStream();
    await flush();
    expect(actor.getSnapshot().matches({ live: 'playing' })).toBe(true);
    expect(actor.getSnapshot().context.mediaStream).toBe(fakeMedia);
    expect(session.started).toHaveLength(1);
  });

  it('fails at once when a first start fails (no silent retries), and starts over on retry', async () => {
    const { actor, session } = startStream({ startFails: true });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toContain('inferenceEngineError');
    expect(session.started).toHaveLength(1);
    expect(session.released).toEqual(['s-1']);
    actor.send({ type: 'stream.retry' });
    await flush();
    expect(session.started).toHaveLength(2);
  });

  it('records the MediaStream and offers the file once stopped', async () => {
    const { actor, log, fakeMedia } = startStream();
    await flush();
    actor.send({ type: 'record.start' });
    expect(actor.getSnapshot().hasTag('recording')).toBe(true);
    expect(log.recorders[0]?.mediaStream).toBe(fakeMedia);
    actor.send({ type: 'record.stop' });
    expect(actor.getSnapshot().matches({ live: { playing: { recorder: 'saving' } } })).toBe(true);
    await flush();
    expect(actor.getSnapshot().matches({ live: { playing: { recorder: 'idle' } } })).toBe(true);
    expect(actor.getSnapshot().context.recording).toEqual(file);
    expect(log.recorderStopped).toBe(1);
  });

  it('keeps the recording when the stream ends while recording, and frees it when closed', async () => {
    const { actor, log, session } = startStream();
    await flush();
    actor.send({ type: 'record.start' });
    actor.send({ type: 'stream.deviceDown' });
    await flush();
    expect(actor.getSnapshot().value).toBe('waitingForDevice');
    expect(session.released).toEqual(['s-1']);
    expect(actor.getSnapshot().context.recording).toEqual(file);
    actor.send({ type: 'stream.close' });
    expect(log.revoked).toEqual([file.url]);
  });

  it('asks its session for stats every frame-rate interval only while the overlay is on', async () => {
    const { actor, session, sample } = startStream();
    await flush();
    expect(session.stats).toEqual([]);
    actor.send({ type: 'stats.toggle' });
    expect(session.stats).toEqual([FRAME_RATE_INTERVAL_MS]);
    sample(stats);
    expect(actor.getSnapshot().context.stats).toEqual(stats);
    actor.send({ type: 'stats.toggle' });
    expect(session.stats).toEqual([FRAME_RATE_INTERVAL_MS, null]);
    expect(actor.getSnapshot().context.stats).toBeNull();
  });

  it('does not pause a hidden cell while it records', async () => {
    const { actor, clock } = startStream();
    await flush();
    actor.send({ type: 'record.start' });
    actor.send({ type: 'stream.view', viewer: 'cell', visible: false });
    clock.increment(5_000);
    expect(actor.getSnapshot().matches({ live: 'playing' })).toBe(true);
  });

  it('keeps playing while the modal shows it, even when its cell is hidden', async () => {
    const { actor, clock } = startStream();
    await flush();
    actor.send({ type: 'stream.view', viewer: 'modal', visible: true });
    actor.send({ type: 'stream.view', viewer: 'cell', visible: false });
    clock.increment(5_000);
    expect(actor.getSnapshot().matches({ live: 'playing' })).toBe(true);
  });

  it('fails with "device disconnected" when its device is lost, whether playing, held or waiting', async () => {
    const playing = startStream();
    await flush();
    playing.actor.send({ type: 'stream.deviceLost' });
    expect(playing.actor.getSnapshot().value).toBe('failed');
    expect(playing.actor.getSnapshot().context.error).toBe(STREAM_TEXTS.deviceDisconnected);

    const held = startStream();
    await flush();
    held.actor.send({ type: 'stream.view', viewer: 'cell', visible: false });
    held.clock.increment(HIDE_GRACE_MS);
    await flush();
    expect(held.actor.getSnapshot().matches({ live: 'held' })).toBe(true);
    held.actor.send({ type: 'stream.deviceLost' });
    expect(held.actor.getSnapshot().value).toBe('failed');

    const waiting = startStream();
    await flush();
    waiting.actor.send({ type: 'stream.deviceDown' });
    expect(waiting.actor.getSnapshot().value).toBe('waitingForDevice');
    waiting.actor.send({ type: 'stream.deviceLost' });
    expect(waiting.actor.getSnapshot().value).toBe('failed');
  });

  it('stays failed, with its first error, when the device is lost after it failed', async () => {
    const { actor } = startStream({ startFails: true });
    await flush();
    const error = actor.getSnapshot().context.error;
    actor.send({ type: 'stream.deviceLost' });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe(error);
  });

  it("hides when its grid page is not the one shown (the grid's stream.view 'page')", async () => {
    const { actor, clock } = startStream();
    await flush();
    actor.send({ type: 'stream.view', viewer: 'page', visible: false });
    clock.increment(HIDE_GRACE_MS);
    await flush();
    expect(actor.getSnapshot().matches({ live: 'held' })).toBe(true);
  });

  it('keeps one session from the offer through hold and resume; a failed resume negotiates anew', async () => {
    let resumes = true;
    const clock = new SimulatedClock();
    const session = fakeStreamSession({ resumes: () => resumes });
    const actor = createActor(
      streamMachine.provide({
        actors: { streamSession: session.actor, recordStream: fromCallback(() => () => undefined) },
      }),
      {
        clock,
        input: {
          streamId: 's-2',
          deviceId: device.device_id,
          deviceLabel: device.label,
          camera: makeCamera(device.device_id),
        },
      },
    ).start();
    await flush();
    const hideAndShow = async () => {
      actor.send({ type: 'stream.view', viewer: 'cell', visible: false });
      clock.increment(HIDE_GRACE_MS);
      expect(actor.getSnapshot().matches({ live: 'held' })).toBe(true);
      actor.send({ type: 'stream.view', viewer: 'cell', visible: true });
      expect(actor.getSnapshot().matches({ live: 'resuming' })).toBe(true);
      await flush();
    };
    await hideAndShow();
    expect(actor.getSnapshot().matches({ live: 'playing' })).toBe(true);
    expect(session.log).toMatchObject({ held: ['s-2'], resumed: ['s-2'], released: [] });
    expect(session.log.started).toHaveLength(1);
    resumes = false;
    await hideAndShow();
    // The agent no longer had it: that session closed, a new one negotiated and plays.
    expect(session.log.released).toEqual(['s-2']);
    expect(session.log.started).toHaveLength(2);
    expect(actor.getSnapshot().matches({ live: 'playing' })).toBe(true);
  });

  it('closes its session when the stream ends and negotiates again after the back-off', async () => {
    const { actor, session, clock, end } = startStream();
    await flush();
    end('Stream ended.');
    expect(actor.getSnapshot().value).toBe('retrying');
    expect(session.released).toEqual(['s-1']);
    clock.increment(10_000);
    await flush();
    expect(session.started).toHaveLength(2);
    expect(actor.getSnapshot().matches({ live: 'playing' })).toBe(true);
  });
});
