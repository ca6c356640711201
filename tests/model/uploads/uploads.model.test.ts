/**
 * The uploads machine on model-based paths: sign-in restores kept uploads (or none, or fails to read them),
 * uploads are added and cancelled, each end removes the entry and (unless cancelled) adds a success or failure
 * line with the §8 toast and the `upload.done` / `upload.failed` emission; Close clears the lines; sign-out
 * stops every upload. Checked on the real machine with real upload children (their actors waiting).
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import {
  uploadMachine,
  type RunUploadInput,
  type UploadEvent,
  type UploadFinished,
} from '../../../machines/uploads/upload.machine';
import { uploadsMachine, type StoredUploadInput } from '../../../machines/uploads/uploads.machine';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof uploadsMachine>;
const child = uploadMachine.provide({
  actors: {
    hashFile: fromCallback<UploadEvent, { id: string; file: Blob }>(() => () => undefined),
    runUpload: fromCallback<UploadEvent, RunUploadInput>(() => () => undefined),
    terminateUpload: fromPromise<void, { id: string; uploadUrl: string | null }>(async () => undefined),
  },
});
const machine = uploadsMachine.provide({ actors: { upload: child } });
const file = (name: string) => new File([new Uint8Array(10)], name);
const STORED: StoredUploadInput = {
  id: 'kept-1',
  file: new Blob([new Uint8Array(10)]),
  fileName: 'kept.onnx',
  size: 10,
  purpose: 'model',
  meta: { modelId: 'm-9' },
  sha256: 'b'.repeat(64),
  uploadUrl: '/api/uploads/k1',
};

function finished(id: string, outcome: UploadFinished['outcome']): UploadFinished {
  return {
    type: 'upload.finished',
    id,
    outcome,
    fileName: `${id}.onnx`,
    purpose: 'model',
    meta: { modelId: 'm-1' },
    result: outcome === 'done' ? { ok: true } : null,
    error: outcome === 'failed' ? 'Servers are unavailable.' : null,
  };
}

function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  const first = s.context.order[0];
  switch (type) {
    case 'xstate.done.actor.loadStored':
      return [
        { type, output: [] },
        { type, output: [STORED] },
      ] as unknown as EventObject[];
    case 'xstate.error.actor.loadStored':
      return [{ type, error: new Error('no IndexedDB') } as EventObject];
    case 'uploads.add':
      return s.context.order.length < 2 && s.context.seq < 2
        ? [
            {
              type,
              file: file(`f${s.context.seq + 1}.onnx`),
              purpose: 'model',
              meta: { modelId: 'm-1' },
            } as EventObject,
          ]
        : [];
    case 'uploads.cancel':
      return first ? [{ type, id: first } as EventObject] : [];
    case 'upload.finished':
      return first && s.context.results.length < 1
        ? (['done', 'failed', 'cancelled'] as const).map((o) => finished(first, o))
        : [];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([s.value, s.context.order, s.context.results.map((r) => [r.id, r.success, r.msg])]);

const start = (driver: Driver) =>
  createActor(machine.provide({ actors: { loadStored: driver.promise('loadStored') } }), {
    input: { session: 's' },
    clock: driver.clock,
  }).start();

describe('uploads machine (model-based paths)', () => {
  const model = createMachineTestModel(machine, { events: eventsFor, key, input: { session: 's' } });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('covers restoring, adding, finishing each way and signing out', () => {
    const keys = paths.map((p) => key(p.state));
    expect(keys.some((k) => k.includes('"kept-1"'))).toBe(true);
    expect(keys.some((k) => k.includes('is successfully uploaded'))).toBe(true);
    expect(keys.some((k) => k.includes('failed to upload'))).toBe(true);
    expect(paths.some((p) => p.state.context.order.length === 2)).toBe(true);
  });

  it('follows every modelled path on the real machine', async () => {
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(0);
  });
});

describe('uploads machine: what an end tells', () => {
  it('emits the §8 toast and upload.done / upload.failed, and spawns real upload actors', async () => {
    const actor = createActor(
      machine.provide({ actors: { loadStored: fromPromise<StoredUploadInput[]>(async () => []) } }),
      {
        input: { session: 's' },
      },
    ).start();
    const notices: unknown[] = [];
    const done: unknown[] = [];
    const failed: unknown[] = [];
    actor.on('notice', (e) => notices.push(e));
    actor.on('upload.done', (e) => done.push(e));
    actor.on('upload.failed', (e) => failed.push(e));
    actor.send({ type: 'uploads.add', file: file('ignored.onnx'), purpose: 'model', meta: {} });
    expect(actor.getSnapshot().context.order).toEqual([]); // signed out: nothing starts
    actor.send({ type: 'uploads.signIn' });
    await new Promise((r) => setTimeout(r, 0));
    actor.send({ type: 'uploads.add', file: file('yolo.onnx'), purpose: 'model', meta: { modelId: 'm-1' } });
    const [id] = actor.getSnapshot().context.order;
    expect(id).toBe('s-1');
    const ref = actor.getSnapshot().context.uploads[id!]!;
    expect(ref.getSnapshot().value).toBe('hashing');
    expect(ref.getSnapshot().context.fileName).toBe('yolo.onnx');
    actor.send({ ...finished(id!, 'done'), fileName: 'yolo.onnx' });
    expect(notices).toEqual([
      expect.objectContaining({
        title: 'Uploaded',
        message: 'yolo.onnx is successfully uploaded',
        variant: 'success',
      }),
    ]);
    expect(done).toEqual([
      {
        type: 'upload.done',
        purpose: 'model',
        meta: { modelId: 'm-1' },
        fileName: 'yolo.onnx',
        result: { ok: true },
      },
    ]);
    expect(actor.getSnapshot().context.order).toEqual([]);
    expect(actor.getSnapshot().children[id!]).toBeUndefined();
    actor.send({ ...finished('gone', 'failed'), fileName: 'bad.onnx' });
    expect(notices[1]).toEqual(
      expect.objectContaining({
        title: 'Upload Failed',
        message: 'bad.onnx failed to upload',
        variant: 'danger',
      }),
    );
    expect(failed).toHaveLength(1);
    expect(actor.getSnapshot().context.results.map((r) => r.success)).toEqual([true, false]);
    actor.send({ type: 'uploads.results.clear' });
    expect(actor.getSnapshot().context.results).toEqual([]);
  });
});
