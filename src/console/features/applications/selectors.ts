/**
 * Pure views of the applications screen (§2 /applications; §3 "Model/application list: data, lastUpdate,
 * loading, page_info. Features list and selectedModelInfo") and their hooks: the list machine's snapshot as
 * rows, and the form machine's snapshot with the features list as the form's options.
 */
import { useSelector } from '@xstate/react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';
import type {
  ApplicationDraft,
  applicationFormMachine,
  DraftErrors,
} from '../../../../machines/applications/applicationForm.machine';
import type { applicationsMachine } from '../../../../machines/applications/applications.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Application, Feature, InputSource, Tracker } from '../../../protocol/applications';
import { actorOf, useSystem } from '../../shell/SystemProvider';

export type ApplicationsSnapshot = SnapshotFrom<typeof applicationsMachine>;
export type ApplicationFormSnapshot = SnapshotFrom<typeof applicationFormMachine>;

/** One row of the list. classes null: all the model's. */
export interface ApplicationRow {
  id: string;
  name: string;
  modelName: string;
  version: number;
  source: InputSource;
  /** `W×H` or null (the model's input size). */
  size: string | null;
  fps: number;
  threshold: number;
  classes: string[] | null;
  tracker: Tracker;
}

export interface ApplicationsView {
  state: 'idle' | 'loading' | 'failed' | 'ready' | 'confirming' | 'deleting';
  rows: ApplicationRow[];
  total: number;
  /** §3 lastUpdate, ms since the epoch. */
  lastUpdate: number | null;
  /** §3 loading. */
  loading: boolean;
  error: string | null;
  target: { id: string; name: string } | null;
}

export const rowOf = (a: Application): ApplicationRow => ({
  id: a.id,
  name: a.name,
  modelName: a.model_name,
  version: a.version,
  source: a.input.source,
  size: a.input.width && a.input.height ? `${a.input.width}×${a.input.height}` : null,
  fps: a.input.fps,
  threshold: a.threshold,
  classes: a.classes.length ? a.classes : null,
  tracker: a.tracker,
});

export function applicationsToView(s: ApplicationsSnapshot): ApplicationsView {
  const c = s.context;
  return {
    state: s.value as ApplicationsView['state'],
    rows: c.data.map(rowOf),
    total: c.page_info?.total_items ?? c.data.length,
    lastUpdate: c.lastUpdate,
    loading: s.hasTag('busy'),
    error: c.error,
    target: c.target ? { id: c.target.id, name: c.target.name } : null,
  };
}

/** The form: its state, fields, options and the §3 selectedModelInfo. */
export interface ApplicationFormView {
  state: 'loadingModels' | 'loadingModel' | 'failed' | 'editing' | 'saving' | 'saved';
  editingName: string | null;
  draft: ApplicationDraft;
  errors: DraftErrors;
  error: string | null;
  models: { id: string; name: string }[];
  versions: { id: string; version: number }[];
  /** §3 selectedModelInfo (null until a model is chosen and read). */
  info: { task: string; classes: string[]; inputSize: string | null } | null;
  sources: InputSource[];
  /** Trackers the chosen model's task can use ('none' always). */
  trackers: Tracker[];
  busy: boolean;
}

export function applicationFormToView(
  s: ApplicationFormSnapshot,
  features: readonly Feature[],
): ApplicationFormView {
  const c = s.context;
  const m = c.selectedModelInfo;
  const applies = (f: Feature) => f.tasks.length === 0 || (!!m && f.tasks.includes(m.task));
  return {
    state: s.value as ApplicationFormView['state'],
    editingName: c.editing?.name ?? null,
    draft: c.draft,
    errors: c.errors,
    error: c.error,
    models: c.models.map((x) => ({ id: x.id, name: x.name })),
    versions: m ? m.version_list.map((v) => ({ id: v.id, version: v.version })) : [],
    info: m
      ? {
          task: m.task,
          classes: m.classes,
          inputSize: m.input_width && m.input_height ? `${m.input_width}×${m.input_height}` : null,
        }
      : null,
    sources: features.filter((f) => f.kind === 'input').map((f) => f.key as InputSource),
    trackers: features.filter((f) => f.kind === 'tracker' && applies(f)).map((f) => f.key as Tracker),
    busy: s.hasTag('busy'),
  };
}

export function useApplicationsRef(): AnyActorRef {
  return actorOf<AnyActorRef>(useSystem(), SYSTEM_IDS.applications);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function useApplicationsView(): ApplicationsView {
  return useSelector(useApplicationsRef(), (s: ApplicationsSnapshot) => applicationsToView(s), same);
}

/** The features list the list machine read (GET features). */
export function useFeatures(): Feature[] {
  return useSelector(useApplicationsRef(), (s: ApplicationsSnapshot) => s.context.features, same);
}
