/**
 * One settings section of one device (spec §7 get-device-settings-info infoType and "Settings changes";
 * §8 "Device setting calls return data null plus the error on failure"), spawned by the deviceSettings actor.
 *
 *   loading ──done──▶ editing.idle ──form.set / form.reset──▶ editing.idle (values, errors from checkForm)
 *   editing ──form.save [no errors, changed]──▶ saving ──done──▶ readingBack ──done──▶ editing.saved
 *                                                        └─error──▶ editing.refused (the device's error shown)
 *   loading / readingBack ──error──▶ loadFailed ──form.reload / form.refresh──▶ loading
 *
 * `form.save` with errors shows them (showErrors) and sends nothing. `form.refresh` (the device says its
 * settings changed, or the tab opened again) reads again unless the user has unsaved edits or a save runs.
 * Side effects are the actors `loadSection` (get-device-settings-info) and `saveChanges` (the change commands of
 * changesOf, in order; the first refusal stops), provided by the console.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { DeviceSettingsInfo, SettingsInfoType } from '../../src/protocol/deviceSettings';
import {
  changesOf,
  checkForm,
  deviceErrorOf,
  formOf,
  isDirty,
  type DeviceError,
  type FormErrors,
  type FormValues,
  type SettingsChange,
} from './settingsChecks';

export interface SettingsFormInput {
  deviceId: string;
  infoType: SettingsInfoType;
}

export interface SettingsFormContext extends SettingsFormInput {
  /** The section as the device last reported it (read-only facts too). */
  section: DeviceSettingsInfo | null;
  /** Values as read from the device (Reset goes back to them). */
  original: FormValues | null;
  /** Values as edited. */
  values: FormValues | null;
  /** Checks of `values` (checkForm), refreshed on every edit. */
  errors: FormErrors;
  /** Errors are shown (after an edit of that field or a save attempt). */
  showErrors: boolean;
  /** Fields the user touched (their errors show at once). */
  touched: string[];
  /** The device's refusal of the last save, or why reading failed. */
  deviceError: DeviceError | null;
}

export type SettingsFormEvent =
  | { type: 'form.set'; field: string; value: string | boolean }
  | { type: 'form.reset' }
  | { type: 'form.save' }
  | { type: 'form.reload' }
  | { type: 'form.refresh' };

export interface SaveChangesInput {
  deviceId: string;
  infoType: SettingsInfoType;
  changes: SettingsChange[];
}

const notProvided = (name: string): never => {
  throw new Error(`settingsForm: actor '${name}' is not provided`);
};

export const settingsFormActors = {
  /** get-device-settings-info → the section; rejects with the device's error. */
  loadSection: fromPromise<DeviceSettingsInfo, SettingsFormInput>(async () => notProvided('loadSection')),
  /** The change commands in order; rejects with the first refusal `{ code, message }`. */
  saveChanges: fromPromise<void, SaveChangesInput>(async () => notProvided('saveChanges')),
};

export const settingsFormMachine = setup({
  types: {
    context: {} as SettingsFormContext,
    events: {} as SettingsFormEvent,
    input: {} as SettingsFormInput,
  },
  actors: settingsFormActors,
  actions: {
    keepSection: assign((_, params: { section: DeviceSettingsInfo }) => {
      const values = formOf(params.section);
      return {
        section: params.section,
        original: values,
        values,
        errors: {},
        showErrors: false,
        touched: [],
        deviceError: null,
      };
    }),
    setField: assign(({ context, event }) => {
      if (event.type !== 'form.set' || !context.values) return {};
      const values = { ...context.values, [event.field]: event.value };
      return {
        values,
        errors: checkForm(context.infoType, values),
        touched: context.touched.includes(event.field) ? context.touched : [...context.touched, event.field],
        deviceError: null,
      };
    }),
    reset: assign(({ context }) => ({
      values: context.original,
      errors: {},
      showErrors: false,
      touched: [],
      deviceError: null,
    })),
    showErrors: assign({ showErrors: true }),
    keepError: assign((_, params: { error: unknown }) => ({ deviceError: deviceErrorOf(params.error) })),
    clearError: assign({ deviceError: null }),
  },
  guards: {
    hasErrors: ({ context }) => Object.keys(context.errors).length > 0,
    isDirty: ({ context }) => isDirty(context.original, context.values),
  },
}).createMachine({
  id: 'settingsForm',
  context: ({ input }) => ({
    ...input,
    section: null,
    original: null,
    values: null,
    errors: {},
    showErrors: false,
    touched: [],
    deviceError: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadSection',
        src: 'loadSection',
        input: ({ context }) => ({ deviceId: context.deviceId, infoType: context.infoType }),
        onDone: {
          target: 'editing',
          actions: { type: 'keepSection', params: ({ event }) => ({ section: event.output }) },
        },
        onError: {
          target: 'loadFailed',
          actions: { type: 'keepError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    loadFailed: {
      on: {
        'form.reload': { target: 'loading', actions: 'clearError' },
        'form.refresh': { target: 'loading', actions: 'clearError' },
      },
    },
    editing: {
      initial: 'idle',
      on: {
        'form.set': { target: '.idle', actions: 'setField' },
        'form.reset': { target: '.idle', actions: 'reset' },
        'form.save': [
          { guard: 'hasErrors', target: '.idle', actions: 'showErrors' },
          { guard: 'isDirty', target: 'saving', actions: 'clearError' },
        ],
        'form.reload': { target: 'loading' },
        'form.refresh': {
          guard: ({ context }) => !isDirty(context.original, context.values),
          target: 'loading',
        },
      },
      states: {
        idle: {},
        /** The save was read back from the device. */
        saved: { tags: ['saved'] },
        /** The device refused the save: its error is deviceError; the edited values stay. */
        refused: { tags: ['refused'] },
      },
    },
    saving: {
      tags: ['saving'],
      invoke: {
        id: 'saveChanges',
        src: 'saveChanges',
        input: ({ context }) => ({
          deviceId: context.deviceId,
          infoType: context.infoType,
          changes: changesOf(context.infoType, context.original!, context.values!),
        }),
        onDone: { target: 'readingBack' },
        onError: {
          target: 'editing.refused',
          actions: { type: 'keepError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    /** After a save: the section read back from the device (what the form shows is what the device has). */
    readingBack: {
      tags: ['saving'],
      invoke: {
        id: 'readBack',
        src: 'loadSection',
        input: ({ context }) => ({ deviceId: context.deviceId, infoType: context.infoType }),
        onDone: {
          target: 'editing.saved',
          actions: { type: 'keepSection', params: ({ event }) => ({ section: event.output }) },
        },
        onError: {
          target: 'loadFailed',
          actions: { type: 'keepError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
  },
});
