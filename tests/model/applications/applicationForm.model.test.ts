/**
 * The application form on model-based paths (§2 /applications; §3 selectedModelInfo; §9 threshold 0.3): the
 * models load (or fail and retry), a model's detail loads, invalid drafts stay in editing with field errors,
 * a valid one is saved (create or edit body) or refused with the server's message; plus the pure validation
 * and body.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import {
  applicationFormMachine,
  bodyOf,
  emptyDraft,
  validateApplication,
  type ApplicationFormInput,
} from '../../../machines/applications/applicationForm.machine';
import type { Model, ModelDetail } from '../../../src/protocol/models';
import { createMachineTestModel, runPaths, type Driver } from '../harness';
import { sampleApplication } from './fixtures';

type Snap = SnapshotFrom<typeof applicationFormMachine>;

const version = {
  id: 'v1',
  model_id: 'M000000000A1',
  version: 1,
  file_name: 'd.onnx',
  size: 10,
  sha256: 'a'.repeat(64),
  notes: '',
  uploaded_by: 'demo',
  created_at: '2026-11-26T10:00:00.000Z',
};
const model: Model = {
  id: 'M000000000A1',
  name: 'demo-people-detector',
  task: 'object-detection',
  format: 'onnx',
  classes: ['person', 'car'],
  input_width: 640,
  input_height: 640,
  description: '',
  versions: 1,
  latest: version,
  size: 10,
  created_at: version.created_at,
  updated_at: version.created_at,
};
const detail: ModelDetail = { ...model, version_list: [version], deployments: [] };
const llm: ModelDetail = { ...detail, id: 'P000000000B2', task: 'llm', classes: [] };

function eventsFor(_s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'form.change':
      return [
        { type, patch: { name: 'Gate', threshold: '0.45', classes: ['car'] } },
        { type, patch: { threshold: '2' } },
      ] as unknown as EventObject[];
    case 'form.model':
      return [{ type, modelId: model.id }] as unknown as EventObject[];
    case 'xstate.done.actor.loadModels':
      return [{ type, output: [model] }] as unknown as EventObject[];
    case 'xstate.error.actor.loadModels':
      return [
        { type, error: new Error('Models could not be fetched. Please try again.') },
      ] as unknown as EventObject[];
    case 'xstate.done.actor.loadModel':
      return [{ type, output: detail }] as unknown as EventObject[];
    case 'xstate.error.actor.loadModel':
      return [{ type, error: new Error('Model not found.') }] as unknown as EventObject[];
    case 'xstate.done.actor.saveApplication':
      return [{ type, output: { ...sampleApplication, name: 'Gate' } }] as unknown as EventObject[];
    case 'xstate.error.actor.saveApplication':
      return [
        { type, error: new Error('An application with this name already exists.') },
      ] as unknown as EventObject[];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.draft.name,
    s.context.draft.threshold,
    s.context.draft.versionId,
    Object.keys(s.context.errors).filter((k) => s.context.errors[k as keyof typeof s.context.errors]),
    s.context.error,
  ]);

const start = (input: ApplicationFormInput) => (driver: Driver) =>
  createActor(
    applicationFormMachine.provide({
      actors: {
        loadModels: driver.promise('loadModels'),
        loadModel: driver.promise('loadModel'),
        saveApplication: driver.promise('saveApplication'),
      },
    }),
    { input },
  ).start();

describe('application form (model-based paths)', () => {
  for (const [name, input] of [
    ['creating', { application: null }],
    ['editing', { application: sampleApplication }],
  ] as const) {
    it(`${name}: follows every modelled path on the real machine`, async () => {
      const paths = createMachineTestModel(applicationFormMachine, {
        events: eventsFor,
        key,
        input,
      }).getShortestPaths({
        allowDuplicatePaths: true,
      });
      const steps = await runPaths(paths, start(input), key);
      expect(steps).toBeGreaterThan(paths.length);
      const ends = paths.map((p) => p.state);
      expect(ends.some((s) => s.matches('saved') && s.output?.application.name === 'Gate')).toBe(true);
      expect(ends.some((s) => s.matches('failed'))).toBe(true);
      expect(ends.some((s) => s.matches('editing') && s.context.errors.threshold === 'range')).toBe(true);
      expect(ends.some((s) => s.matches('editing') && s.context.error?.includes('already exists'))).toBe(
        true,
      );
      for (const p of paths)
        for (const st of p.steps)
          if (st.state.matches('saving'))
            expect(validateApplication(st.state.context.draft, st.state.context.selectedModelInfo)).toEqual(
              {},
            );
    });
  }

  it('starts with the §9 threshold 0.3 and the first version of the chosen model; sends the body typed', async () => {
    let sent: unknown = null;
    const actor = createActor(
      applicationFormMachine.provide({
        actors: {
          loadModels: fromPromise(async () => [model]),
          loadModel: fromPromise(async () => detail),
          saveApplication: fromPromise(async ({ input }: { input: { id: string | null; body: unknown } }) => {
            sent = input;
            return sampleApplication;
          }) as never,
        },
      }),
      { input: { application: null } },
    ).start();
    const tick = () => new Promise((r) => setImmediate(r));
    await tick();
    expect(actor.getSnapshot().context.draft.threshold).toBe('0.3');
    actor.send({ type: 'form.model', modelId: model.id });
    await tick();
    expect(actor.getSnapshot().context.draft.versionId).toBe('v1');
    actor.send({
      type: 'form.change',
      patch: { name: ' Gate ', classes: ['car'], tracker: 'sort', width: '1280', height: '720' },
    });
    actor.send({ type: 'form.save' });
    await tick();
    expect(actor.getSnapshot().value).toBe('saved');
    expect(sent).toEqual({
      id: null,
      body: {
        name: 'Gate',
        description: '',
        model_version_id: 'v1',
        input: { source: 'camera', width: 1280, height: 720, fps: 25 },
        threshold: 0.3,
        classes: ['car'],
        tracker: 'sort',
      },
    });
  });

  it('validates names, ranges and trackers for tasks without detections', () => {
    const d = { ...emptyDraft(), name: 'x', modelId: llm.id, versionId: 'v1' };
    expect(validateApplication(d, llm)).toEqual({});
    expect(validateApplication({ ...d, tracker: 'sort' }, llm)).toEqual({ tracker: 'notTrackable' });
    expect(validateApplication({ ...d, name: ' ', fps: '0', width: 'abc', threshold: '' }, llm)).toEqual({
      name: 'required',
      fps: 'range',
      width: 'range',
      threshold: 'range',
    });
    expect(bodyOf({ ...d, width: '', height: '' }).input).toEqual({
      source: 'camera',
      width: null,
      height: null,
      fps: 25,
    });
  });
});
