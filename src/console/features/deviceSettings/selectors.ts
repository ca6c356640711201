/**
 * What the Settings tab reads of the deviceSettings actor (systemId 'deviceSettings', machines/deviceSettings/):
 * pure `*ToView` functions from snapshots to what a screen shows, and hooks selecting them. No protocol values
 * are imported (zod stays out of the screens' chunk).
 */
import { shallowEqual, useSelector } from '@xstate/react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';
import type {
  ClientActionName,
  clientActionMachine,
} from '../../../../machines/deviceSettings/clientAction.machine';
import {
  formKey,
  type ClientActionRef,
  type deviceSettingsMachine,
  type SettingsFormRef,
} from '../../../../machines/deviceSettings/deviceSettings.machine';
import {
  fieldsOf,
  isDirty,
  type DeviceError,
  type FieldError,
  type FieldSpec,
  type FormValues,
} from '../../../../machines/deviceSettings/settingsChecks';
import type { settingsFormMachine } from '../../../../machines/deviceSettings/settingsForm.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { DeviceSettingsInfo, SettingsInfoType } from '../../../protocol/deviceSettings';
import { actorOf, useSystem } from '../../shell/SystemProvider';

type SettingsSnapshot = SnapshotFrom<typeof deviceSettingsMachine>;
type FormSnapshot = SnapshotFrom<typeof settingsFormMachine>;
type ActionSnapshot = SnapshotFrom<typeof clientActionMachine>;
export type SettingsRef = ReturnType<typeof useSettingsRef>;

/** Where a section's form stands. */
export type FormStatus = 'loading' | 'loadFailed' | 'editing' | 'saving' | 'saved' | 'refused';

export interface FormView {
  status: FormStatus;
  /** The fields shown (Jetson fields only on Jetson). */
  fields: FieldSpec[];
  values: FormValues;
  /** Errors to show now: of touched fields, or all after a save attempt. */
  errors: Record<string, FieldError>;
  /** Any error, shown or not (Save sends nothing while there is one). */
  invalid: boolean;
  dirty: boolean;
  /** The device's refusal, or why the section could not be read. */
  deviceError: DeviceError | null;
  /** The section as the device last reported it (read-only facts). */
  section: DeviceSettingsInfo | null;
}

const statusOf = (s: FormSnapshot): FormStatus => {
  if (s.matches('loading')) return 'loading';
  if (s.matches('loadFailed')) return 'loadFailed';
  if (s.matches('saving') || s.matches('readingBack')) return 'saving';
  if (s.matches({ editing: 'saved' })) return 'saved';
  if (s.matches({ editing: 'refused' })) return 'refused';
  return 'editing';
};

export function formToView(s: FormSnapshot): FormView {
  const c = s.context;
  const shown: Record<string, FieldError> = {};
  for (const [name, error] of Object.entries(c.errors)) {
    if (c.showErrors || c.touched.includes(name)) shown[name] = error;
  }
  return {
    status: statusOf(s),
    fields: fieldsOf(c.infoType, c.values),
    values: c.values ?? {},
    errors: shown,
    invalid: Object.keys(c.errors).length > 0,
    dirty: isDirty(c.original, c.values),
    deviceError: c.deviceError,
    section: c.section,
  };
}

function formViewEqual(a: FormView, b: FormView): boolean {
  return (
    shallowEqual({ ...a, fields: 0, errors: 0 }, { ...b, fields: 0, errors: 0 }) &&
    a.fields.length === b.fields.length &&
    JSON.stringify(a.errors) === JSON.stringify(b.errors)
  );
}

export type ActionStatus = 'idle' | 'confirming' | 'running' | 'done' | 'failed';

export interface ActionView {
  status: ActionStatus;
  action: ClientActionName | null;
  cieUrl: string;
  cieError: FieldError | null;
  error: DeviceError | null;
}

export function actionToView(s: ActionSnapshot): ActionView {
  const c = s.context;
  return {
    status: (['confirming', 'running', 'done', 'failed'] as const).find((v) => s.matches(v)) ?? 'idle',
    action: c.action,
    cieUrl: c.cieUrl,
    cieError: c.cieError,
    error: c.error,
  };
}

// ---- connected devices (the device pool) -------------------------------------------------------------------

/** The part of the device pool's snapshot read here (devicePool.machine.ts). */
interface DevicePoolSnapshotLike {
  context: {
    status: Readonly<Record<string, string>>;
    connections: Readonly<Record<string, { getSnapshot(): { context: { device: { label: string } } } }>>;
  };
}

/** The device's label when its link is open (the pool's status 'open'), else null. */
export function connectedLabel(pool: DevicePoolSnapshotLike | undefined, deviceId: string): string | null {
  if (pool?.context.status[deviceId] !== 'open') return null;
  return pool.context.connections[deviceId]?.getSnapshot().context.device.label || deviceId;
}

// ---- hooks ---------------------------------------------------------------------------------------------------

export const useSettingsRef = () => actorOf<AnyActorRef>(useSystem(), SYSTEM_IDS.deviceSettings);

/** The device's label while its link is open, else null. */
export function useConnectedLabel(deviceId: string): string | null {
  const system = useSystem();
  const pool = system.system.get(SYSTEM_IDS.devicePool) as AnyActorRef | undefined;
  const fallback = useSettingsRef();
  return useSelector(pool ?? fallback, (s: unknown) =>
    pool ? connectedLabel(s as DevicePoolSnapshotLike, deviceId) : null,
  );
}

export function useFormRef(deviceId: string, infoType: SettingsInfoType): SettingsFormRef | undefined {
  return useSelector(useSettingsRef(), (s: SettingsSnapshot) => s.context.forms[formKey(deviceId, infoType)]);
}

export function useActionRef(deviceId: string): ClientActionRef | undefined {
  return useSelector(useSettingsRef(), (s: SettingsSnapshot) => s.context.actions[deviceId]);
}

export function useFormView(ref: SettingsFormRef | undefined): FormView | null {
  return useSelector(
    ref,
    (s: FormSnapshot | undefined) => (s ? formToView(s) : null),
    (a, b) => (a && b ? formViewEqual(a, b) : a === b),
  );
}

export function useActionView(ref: ClientActionRef | undefined): ActionView | null {
  return useSelector(
    ref,
    (s: ActionSnapshot | undefined) => (s ? actionToView(s) : null),
    (a, b) => (a && b ? shallowEqual(a, b) : a === b),
  );
}
