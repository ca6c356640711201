import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import type { NoticeEmitted } from '../../../machines/emitted';
import {
  STREAM_TEXTS,
  streamMachine,
  type StartedStream,
  type StartStreamInput,
} from '../../../machines/stream.machine';
import { DEVICE_WARNING, pageCountOf, streamsMachine } from '../../../machines/streams.machine';
import { flush, makeCamera, makeDevice } from './fixtures';

const device = makeDevice(1);
const fakeMedia = {} as MediaStream;

function startStream(quota: boolean) {
  const started: string[] = [];
  const released: string[] = [];
  const machine = streamMachine.provide({
    actors: {
      checkQuota: fromPromise(async () => quota),
      startStream: fromPromise(async ({ input }) => {
        started.push(input.streamId);
        return { mediaStream: fakeMedia, resolution: null };
      }),
      watchStream: fromCallback(() => () => undefined),
    },
    actions: { releaseStream: (_, params) => released.push(params.streamId) },
  });
  const actor = createActor(machine, {
    input: {
      streamId: 's-1',
      deviceId: device.device_id,
      deviceLabel: device.label,
      camera: makeCamera(device.device_id),
    },
  });
  actor.start();
  return { actor, started, released };
}

function startStreams() {
  const machine = streamsMachine.provide({
    actors: {
      stream: streamMachine.provide({
        actors: {
          checkQuota: fromPromise(async () => true),
          startStream: fromPromise<StartedStream, StartStreamInput>(async () => ({
            mediaStream: fakeMedia,
            resolution: null,
          })),
          watchStream: fromCallback(() => () => undefined),
        },
      }),
    },
  });
  const streams = createActor(machine, { input: { idPrefix: 'web-t' } });
  const notices: NoticeEmitted[] = [];
  streams.on('notice', (n) => notices.push(n));
  streams.start();
  return { streams, notices };
}

describe('stream', () => {
  it('plays after the quota check and the SDP exchange', async () => {
    const { actor, started } = startStream(true);
    await flush();
    expect(actor.getSnapshot().value).toBe('playing');
    expect(actor.getSnapshot().context.mediaStream).toBe(fakeMedia);
    expect(started).toEqual(['s-1']);
  });

  it('fails with "Stream quota exceeded" when the quota is refused, without starting', async () => {
    const { actor, started } = startStream(false);
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe(STREAM_TEXTS.quotaExceeded);
    expect(started).toEqual([]);
  });

  it('releases the session when closed (stop-stream and pc.close)', async () => {
    const { actor, released } = startStream(true);
    await flush();
    actor.send({ type: 'stream.close' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context.mediaStream).toBeNull();
    expect(released).toEqual(['s-1']);
  });

  it('fails with "Device disconnected" when its device link closes', async () => {
    const { actor } = startStream(true);
    await flush();
    actor.send({ type: 'stream.deviceLost' });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe(STREAM_TEXTS.deviceDisconnected);
  });
});

describe('streams', () => {
  it('refuses a camera of a device that is not connected with the "Device Warning" notice', () => {
    const { streams, notices } = startStreams();
    streams.send({ type: 'stream.open', deviceId: device.device_id, camera: makeCamera(device.device_id) });
    expect(streams.getSnapshot().context.streams).toEqual([]);
    expect(notices).toEqual([
      { type: 'notice', title: DEVICE_WARNING.title, message: DEVICE_WARNING.message, variant: 'warning' },
    ]);
  });

  it('puts 12 streams on page 1 and opens page 2 for the 13th', async () => {
    const { streams } = startStreams();
    streams.send({ type: 'device.status', deviceId: device.device_id, label: device.label, status: 'open' });
    for (let i = 0; i < 12; i++) {
      streams.send({
        type: 'stream.open',
        deviceId: device.device_id,
        camera: makeCamera(device.device_id, i),
      });
    }
    expect(streams.getSnapshot().context.page).toBe(1);
    streams.send({
      type: 'stream.open',
      deviceId: device.device_id,
      camera: makeCamera(device.device_id, 12),
    });
    await flush();
    const { streams: open, page } = streams.getSnapshot().context;
    expect(open).toHaveLength(13);
    expect(page).toBe(2);
    expect(pageCountOf(open.length)).toBe(2);
    expect(new Set(open.map((s) => s.streamId)).size).toBe(13);
    expect(open[12]!.ref.getSnapshot().context.deviceLabel).toBe(device.label);
  });

  it('drops a closed stream from the grid and goes back to the last page that exists', async () => {
    const { streams } = startStreams();
    streams.send({ type: 'device.status', deviceId: device.device_id, label: device.label, status: 'open' });
    for (let i = 0; i < 13; i++) {
      streams.send({
        type: 'stream.open',
        deviceId: device.device_id,
        camera: makeCamera(device.device_id, i),
      });
    }
    await flush();
    const last = streams.getSnapshot().context.streams[12]!;
    streams.send({ type: 'stream.close', streamId: last.streamId });
    await flush();
    expect(streams.getSnapshot().context.streams).toHaveLength(12);
    expect(streams.getSnapshot().context.page).toBe(1);
    expect(last.ref.getSnapshot().value).toBe('closed');
  });

  it('fails the streams of a device whose link closed', async () => {
    const { streams } = startStreams();
    streams.send({ type: 'device.status', deviceId: device.device_id, label: device.label, status: 'open' });
    streams.send({ type: 'stream.open', deviceId: device.device_id, camera: makeCamera(device.device_id) });
    await flush();
    streams.send({
      type: 'device.status',
      deviceId: device.device_id,
      label: device.label,
      status: 'closed',
    });
    await flush();
    const ref = streams.getSnapshot().context.streams[0]!.ref;
    expect(ref.getSnapshot().value).toBe('failed');
    expect(ref.getSnapshot().context.error).toBe(STREAM_TEXTS.deviceDisconnected);
  });
});
