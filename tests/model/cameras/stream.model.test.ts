import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import {
  isShown,
  streamMachine,
  type RecordStreamInput,
  type SessionCommand,
  type StreamEvent,
  type StreamSessionInput,
} from '../../../machines/cameras/stream.machine';
import type { DeviceCamera } from '../../../src/protocol/commands';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof streamMachine>;

const camera: DeviceCamera = {
  id: 'dev-1-cam0',
  camera_id: 'cam0',
  uniqueCameraId: 'dev-1-cam0',
  unique_id: 'u-cam0',
  name: 'Camera 0',
  label: 'Camera 0',
  device_id: 'dev-1',
  camera_type: 'physical',
};
const input = { streamId: 's-1', deviceId: 'dev-1', deviceLabel: 'Device 1', camera };

const samples: Record<string, Array<StreamEvent | EventObject>> = {
  // What the session reports (streamSession.ts), sent as the session's sendBack would.
  'session.started': [{ type: 'session.started', mediaStream: {} as MediaStream, resolution: null }],
  'session.failed': [{ type: 'session.failed', error: new Error('no answer') }],
  'session.resumed': [
    { type: 'session.resumed', resumed: true },
    { type: 'session.resumed', resumed: false },
  ],
  'stream.ended': [{ type: 'stream.ended', error: 'The device closed the stream.' } as EventObject],
  'stream.view': [
    { type: 'stream.view', viewer: 'cell', visible: false } as EventObject,
    { type: 'stream.view', viewer: 'cell', visible: true } as EventObject,
  ],
  // Covered by the unit tests; left out to keep the graph small.
  'stats.sample': [],
  'record.saved': [
    {
      type: 'record.saved',
      file: { url: 'blob:1', bytes: 1, mimeType: 'video/webm;codecs=vp8', fileName: 'a.webm' },
    } as EventObject,
  ],
  'record.failed': [{ type: 'record.failed', error: 'Recording failed.' } as EventObject],
};

/** State value plus the context the guards read ('closed' is final: nothing more happens). */
const key = (s: Snap) =>
  s.value === 'closed'
    ? '"closed"'
    : JSON.stringify([
        s.value,
        s.context.deviceOpen,
        isShown(s.context),
        s.context.resumed,
        Math.min(s.context.attempts, 7),
        s.context.statsOn,
        !!s.context.recording,
      ]);

const model = createMachineTestModel(streamMachine, {
  events: (_, type) => samples[type],
  key,
  input,
});

function start(driver: Driver) {
  return createActor(
    streamMachine.provide({
      actors: {
        streamSession: driver.callback<SessionCommand, StreamSessionInput>('streamSession'),
        recordStream: driver.callback<StreamEvent, RecordStreamInput>('recordStream'),
      },
    }),
    { input, clock: driver.clock },
  ).start();
}

describe('stream (model-based paths)', () => {
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches connecting, every playing region, held, resuming, released, waitingForDevice, retrying, failed and closed', () => {
    const values = paths.map((p) => JSON.stringify(p.state.value));
    for (const v of [
      '{"live":"connecting"}',
      '{"live":"held"}',
      '"released"',
      '{"live":"resuming"}',
      '"waitingForDevice"',
      '"retrying"',
      '"failed"',
      '"closed"',
    ]) {
      expect(values).toContain(v);
    }
    for (const part of [
      '"visibility":"hiding"',
      '"recorder":"recording"',
      '"recorder":"saving"',
      '"stats":"on"',
    ]) {
      expect(values.some((v) => v.includes(part))).toBe(true);
    }
  });

  it('follows every modelled path on the real machine', async () => {
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
  });
});
