/**
 * The application form — create an application from a model version, or edit one (spec §2 /applications;
 * §3 "Features list and selectedModelInfo"; §9 "Default detection threshold 0.3").
 *
 * loadingModels → editing; choosing a model (form.model) → loadingModel (its detail: versions, classes, input
 * size = selectedModelInfo) → editing; form.change edits the draft (in editing and loadingModel); form.save →
 * saving when the draft is valid (else editing with field errors) → saved (final; output: the application) |
 * editing with the server's error. A load failure goes to `failed` (form.retry). Pure: the calls are the provided actors `loadModels`,
 * `loadModel` and `saveApplication`. Tags: `busy` while loading or saving.
 */
import { assign, fromPromise, setup } from 'xstate';
import {
  DEFAULT_DETECTION_THRESHOLD,
  FPS_MAX,
  TRACKABLE_TASKS,
  type Application,
  type ApplicationBody,
  type InputSource,
  type Tracker,
} from '../../src/protocol/applications';
import type { Model, ModelDetail } from '../../src/protocol/models';
import { errorText } from '../notifications/emitted';

/** The form's fields. width/height/fps/threshold as typed (strings); classes: chosen ones (empty: all). */
export interface ApplicationDraft {
  name: string;
  description: string;
  modelId: string;
  versionId: string;
  source: InputSource;
  width: string;
  height: string;
  fps: string;
  threshold: string;
  classes: string[];
  tracker: Tracker;
}

/** Field errors: i18n keys under applications.errors. */
export type DraftErrors = Partial<Record<keyof ApplicationDraft, 'required' | 'range' | 'notTrackable'>>;

export interface ApplicationFormInput {
  application: Application | null;
}

export interface ApplicationFormContext {
  /** The application edited (null: a new one). */
  editing: Application | null;
  draft: ApplicationDraft;
  models: Model[];
  /** §3 selectedModelInfo: the chosen model with its versions. */
  selectedModelInfo: ModelDetail | null;
  errors: DraftErrors;
  error: string | null;
}

export type ApplicationFormEvent =
  | { type: 'form.change'; patch: Partial<ApplicationDraft> }
  | { type: 'form.model'; modelId: string }
  | { type: 'form.save' }
  | { type: 'form.retry' };

export const emptyDraft = (): ApplicationDraft => ({
  name: '',
  description: '',
  modelId: '',
  versionId: '',
  source: 'camera',
  width: '',
  height: '',
  fps: '25',
  threshold: String(DEFAULT_DETECTION_THRESHOLD),
  classes: [],
  tracker: 'none',
});

const draftOf = (a: Application): ApplicationDraft => ({
  name: a.name,
  description: a.description,
  modelId: a.model_id,
  versionId: a.model_version_id,
  source: a.input.source,
  width: a.input.width === null ? '' : String(a.input.width),
  height: a.input.height === null ? '' : String(a.input.height),
  fps: String(a.input.fps),
  threshold: String(a.threshold),
  classes: a.classes,
  tracker: a.tracker,
});

const intIn = (s: string, min: number, max: number) => /^\d+$/.test(s.trim()) && +s >= min && +s <= max;

/** Field errors of a draft for the chosen model (null: not loaded yet). */
export function validateApplication(d: ApplicationDraft, model: ModelDetail | null): DraftErrors {
  const e: DraftErrors = {};
  if (!d.name.trim()) e.name = 'required';
  if (!d.modelId) e.modelId = 'required';
  if (!d.versionId || (model && !model.version_list.some((v) => v.id === d.versionId)))
    e.versionId = 'required';
  const t = Number(d.threshold);
  if (d.threshold.trim() === '' || !Number.isFinite(t) || t < 0 || t > 1) e.threshold = 'range';
  if (!intIn(d.fps, 1, FPS_MAX)) e.fps = 'range';
  if (d.width.trim() !== '' && !intIn(d.width, 1, 16_384)) e.width = 'range';
  if (d.height.trim() !== '' && !intIn(d.height, 1, 16_384)) e.height = 'range';
  if (d.tracker !== 'none' && model && !TRACKABLE_TASKS.includes(model.task)) e.tracker = 'notTrackable';
  return e;
}

/** The request body of a valid draft. */
export function bodyOf(d: ApplicationDraft): ApplicationBody {
  return {
    name: d.name.trim(),
    description: d.description,
    model_version_id: d.versionId,
    input: {
      source: d.source,
      width: d.width.trim() ? Number(d.width) : null,
      height: d.height.trim() ? Number(d.height) : null,
      fps: Number(d.fps),
    },
    threshold: Number(d.threshold),
    classes: d.classes,
    tracker: d.tracker,
  };
}

export const applicationFormMachine = setup({
  types: {
    context: {} as ApplicationFormContext,
    events: {} as ApplicationFormEvent,
    input: {} as ApplicationFormInput,
    output: {} as { application: Application },
  },
  actors: {
    loadModels: fromPromise<Model[]>(async () => {
      throw new Error('applicationForm: loadModels is not provided');
    }),
    loadModel: fromPromise<ModelDetail, { modelId: string }>(async () => {
      throw new Error('applicationForm: loadModel is not provided');
    }),
    saveApplication: fromPromise<Application, { id: string | null; body: ApplicationBody }>(async () => {
      throw new Error('applicationForm: saveApplication is not provided');
    }),
  },
  actions: {
    change: assign(({ context, event }) => {
      if (event.type !== 'form.change') return {};
      const draft = { ...context.draft, ...event.patch };
      const errors = { ...context.errors };
      for (const k of Object.keys(event.patch) as (keyof ApplicationDraft)[]) delete errors[k];
      return { draft, errors };
    }),
  },
  guards: {
    hasModel: ({ context }) => context.draft.modelId !== '',
    valid: ({ context }) =>
      Object.keys(validateApplication(context.draft, context.selectedModelInfo)).length === 0,
  },
}).createMachine({
  id: 'applicationForm',
  context: ({ input }) => ({
    editing: input.application,
    draft: input.application ? draftOf(input.application) : emptyDraft(),
    models: [],
    selectedModelInfo: null,
    errors: {},
    error: null,
  }),
  initial: 'loadingModels',
  output: ({ context }) => ({ application: context.editing! }),
  states: {
    loadingModels: {
      tags: ['busy'],
      invoke: {
        id: 'loadModels',
        src: 'loadModels',
        onDone: [
          {
            guard: 'hasModel',
            target: 'loadingModel',
            actions: assign({ models: ({ event }) => event.output }),
          },
          { target: 'editing', actions: assign({ models: ({ event }) => event.output }) },
        ],
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorText(event.error, 'failed') }),
        },
      },
    },
    loadingModel: {
      tags: ['busy'],
      // The fields stay editable while the model's detail loads.
      on: { 'form.change': { actions: 'change' } },
      invoke: {
        id: 'loadModel',
        src: 'loadModel',
        input: ({ context }) => ({ modelId: context.draft.modelId }),
        onDone: {
          target: 'editing',
          actions: assign(({ context, event }) => {
            const m = event.output;
            const keepVersion = m.version_list.some((v) => v.id === context.draft.versionId);
            return {
              selectedModelInfo: m,
              draft: {
                ...context.draft,
                versionId: keepVersion ? context.draft.versionId : (m.version_list[0]?.id ?? ''),
                classes: context.draft.classes.filter((c) => m.classes.includes(c)),
                tracker: TRACKABLE_TASKS.includes(m.task) ? context.draft.tracker : 'none',
              },
              error: null,
            };
          }),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorText(event.error, 'failed') }),
        },
      },
    },
    failed: {
      on: { 'form.retry': { target: 'loadingModels', actions: assign({ error: null }) } },
    },
    editing: {
      on: {
        'form.change': { actions: 'change' },
        'form.model': {
          target: 'loadingModel',
          actions: assign(({ context, event }) => ({
            draft: { ...context.draft, modelId: event.modelId, versionId: '' },
            selectedModelInfo: null,
            errors: { ...context.errors, modelId: undefined, versionId: undefined },
          })),
        },
        'form.save': [
          { guard: 'valid', target: 'saving', actions: assign({ errors: {}, error: null }) },
          {
            actions: assign(({ context }) => ({
              errors: validateApplication(context.draft, context.selectedModelInfo),
            })),
          },
        ],
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveApplication',
        src: 'saveApplication',
        input: ({ context }) => ({ id: context.editing?.id ?? null, body: bodyOf(context.draft) }),
        onDone: { target: 'saved', actions: assign({ editing: ({ event }) => event.output }) },
        onError: {
          target: 'editing',
          actions: assign({
            error: ({ event }) => errorText(event.error, 'The application could not be saved.'),
          }),
        },
      },
    },
    saved: { type: 'final' },
  },
});
