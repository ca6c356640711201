/**
 * The upload machine on model-based paths: hashing with progress, created, progress, success with the purpose
 * result, failure, cancel while hashing or uploading (the server removal tried, succeeding or not) — and every
 * end forgets the kept record and tells the parent once. Plus: a resumed upload (hash and URL known) skips
 * hashing, and a record without its file fails at once.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import { uploadMachine, type UploadInput } from '../../../machines/uploads/upload.machine';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof uploadMachine>;
const FILE = new Blob([new Uint8Array(100)]);
const input: UploadInput = {
  id: 'u-1',
  file: FILE,
  fileName: 'net.onnx',
  size: 100,
  purpose: 'model',
  meta: { modelId: 'm-1' },
};
const SHA = 'a'.repeat(64);

function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'upload.hashProgress':
      return s.context.hashed === 0 ? [{ type, done: 40 } as EventObject] : [];
    case 'upload.hashed':
      return [{ type, sha256: SHA } as EventObject];
    case 'upload.created':
      return s.context.uploadUrl ? [] : [{ type, uploadUrl: '/api/uploads/abc' } as EventObject];
    case 'upload.progress':
      return s.context.sent === 0 ? [{ type, sent: 60, total: 100 } as EventObject] : [];
    case 'upload.succeeded':
      return [{ type, result: { model: 'm-1' } } as EventObject];
    case 'upload.failed':
      return [{ type, error: 'net.onnx: only .onnx files are accepted.' } as EventObject];
    case 'xstate.done.actor.terminateUpload':
      return [{ type, output: undefined } as EventObject];
    case 'xstate.error.actor.terminateUpload':
      return [{ type, error: new Error('offline') } as EventObject];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.hashed,
    s.context.sent,
    s.context.sha256,
    s.context.uploadUrl,
    s.context.error,
    s.context.result,
  ]);

function start(driver: Driver, told: string[], forgotten: string[], kept: string[], given = input) {
  return createActor(
    uploadMachine.provide({
      actors: {
        hashFile: driver.callback('hashFile'),
        runUpload: driver.callback('runUpload'),
        terminateUpload: driver.promise('terminateUpload'),
      },
      actions: {
        tellParent: (_, params) => void told.push(params.outcome),
        forgetUpload: (_, params) => void forgotten.push(params.id),
        keepUpload: ({ context }) => void kept.push(context.id),
      },
    }),
    { input: given, clock: driver.clock },
  ).start();
}

describe('upload machine (model-based paths)', () => {
  // The model explores the machine alone: no parent to tell.
  const alone = uploadMachine.provide({ actions: { tellParent: () => undefined } });
  const model = createMachineTestModel(alone, { events: eventsFor, key, input, transitionCoverage: true });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches every state', () => {
    const values = new Set(paths.map((p) => JSON.stringify(p.state.value)));
    for (const v of ['hashing', 'uploading', 'cancelling', 'done', 'failed', 'cancelled']) {
      expect(values).toContain(JSON.stringify(v));
    }
  });

  it('follows every modelled path on the real machine; each end tells the parent and forgets once', async () => {
    const told: string[] = [];
    const forgotten: string[] = [];
    const kept: string[] = [];
    let ends = 0;
    const finals = new Set(['done', 'failed', 'cancelled']);
    for (const p of paths) if (finals.has(p.state.value as string)) ends++;
    const steps = await runPaths(paths, (driver) => start(driver, told, forgotten, kept), key);
    expect(steps).toBeGreaterThan(0);
    expect(told.length).toBe(ends);
    expect(forgotten.length).toBe(ends);
    expect(kept.length).toBe(paths.length);
    expect(new Set(told)).toEqual(finals);
  });
});

describe('upload machine: resumed and lost records', () => {
  it('skips hashing when the hash and URL are known, and hands them to the transfer', async () => {
    const told: string[] = [];
    const { Driver: D } = await import('../harness');
    const driver = new D();
    const actor = start(driver, told, [], [], { ...input, sha256: SHA, uploadUrl: '/api/uploads/abc' });
    expect(actor.getSnapshot().value).toBe('uploading');
    expect(actor.getSnapshot().context.hashed).toBe(100);
    driver.sendBack('runUpload', '', { type: 'upload.succeeded', result: 1 } as EventObject);
    expect(actor.getSnapshot().value).toBe('done');
    expect(told).toEqual(['done']);
  });

  it('fails at once without its file', async () => {
    const told: string[] = [];
    const { Driver: D } = await import('../harness');
    const actor = start(new D(), told, [], [], { ...input, file: null });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe('The file is no longer available.');
    expect(told).toEqual(['failed']);
  });
});
