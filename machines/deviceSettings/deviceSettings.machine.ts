/**
 * The settings of the devices whose Settings tab is open (spec §7 "Client and settings", "Settings changes").
 *
 * Long-lived (systemId 'deviceSettings'). `settings.open` { deviceId } spawns, once per device, one
 * settingsForm actor per infoType (INFO_TYPES; id `<deviceId>|<infoType>`) and one clientAction actor
 * (`<deviceId>|actions`); opening again asks the forms to read again (`form.refresh`: unless edited).
 * `settings.changed` { deviceId, infoType | null } — the device's 'settings.changed' link event (watched by the
 * provided `watchDevices` actor) or a client action that changed them — refreshes that device's forms (all of
 * them for null). `settings.metricAlert` — the device's 'settings.metricAlert' link event: a metric went over
 * its alert threshold (alert-metrics-settings-info) — is shown as a warning toast (emitted `notice`) naming the
 * device, the metric, its value and the threshold. `settings.reset` (sign-out) stops every child.
 */
import { emit, enqueueActions, fromCallback, setup, type ActorRefFrom, type EventObject } from 'xstate';
import type { ConsoleEmitted } from '../notifications/emitted';
import { METRIC_ALERT_TEXTS, type AlertMetric } from './metricAlertTexts';

export type { AlertMetric } from './metricAlertTexts';
import type { SettingsInfoType } from '../../src/protocol/deviceSettings';
import { clientActionMachine } from './clientAction.machine';
import { INFO_TYPES } from './settingsChecks';
import { settingsFormMachine } from './settingsForm.machine';

export type SettingsFormRef = ActorRefFrom<typeof settingsFormMachine>;
export type ClientActionRef = ActorRefFrom<typeof clientActionMachine>;

export interface DeviceSettingsContext {
  /** Forms by `<deviceId>|<infoType>`. */
  forms: Record<string, SettingsFormRef>;
  /** Client actions by device id. */
  actions: Record<string, ClientActionRef>;
}

const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_m, k: string) => String(values[k] ?? ''));

export type DeviceSettingsEvent =
  | { type: 'settings.open'; deviceId: string }
  | {
      type: 'settings.metricAlert';
      deviceId: string;
      /** The device's name (its label). */
      device: string;
      metric: AlertMetric;
      /** % (cpu, gpu, memory) or °C (temperature). */
      value: number;
      threshold: number;
    }
  | { type: 'settings.changed'; deviceId: string; infoType: SettingsInfoType | null }
  | { type: 'settings.reset' };

/** The key of a device's form. */
export const formKey = (deviceId: string, infoType: SettingsInfoType): string => `${deviceId}|${infoType}`;

export const deviceSettingsActors = {
  settingsForm: settingsFormMachine,
  clientAction: clientActionMachine,
  /** Sends `settings.changed` when a device reports its settings changed (link event). */
  watchDevices: fromCallback<EventObject>(() => () => undefined),
};

export const deviceSettingsMachine = setup({
  types: {
    context: {} as DeviceSettingsContext,
    events: {} as DeviceSettingsEvent,
  },
  actors: deviceSettingsActors,
  actions: {
    open: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'settings.open') return;
      const { deviceId } = event;
      if (context.actions[deviceId]) {
        for (const t of INFO_TYPES) {
          const ref = context.forms[formKey(deviceId, t)];
          if (ref) enqueue.sendTo(ref, { type: 'form.refresh' });
        }
        return;
      }
      enqueue.assign(({ context: c, spawn }) => {
        const forms = { ...c.forms };
        for (const infoType of INFO_TYPES) {
          const id = formKey(deviceId, infoType);
          forms[id] = spawn('settingsForm', { id, input: { deviceId, infoType } });
        }
        const action = spawn('clientAction', { id: `${deviceId}|actions`, input: { deviceId } });
        return { forms, actions: { ...c.actions, [deviceId]: action } };
      });
    }),
    refresh: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'settings.changed') return;
      for (const t of INFO_TYPES) {
        const ref = context.forms[formKey(event.deviceId, t)];
        if (ref && (event.infoType === null || event.infoType === t))
          enqueue.sendTo(ref, { type: 'form.refresh' });
      }
    }),
    noticeMetricAlert: emit(({ event }): ConsoleEmitted => {
      if (event.type !== 'settings.metricAlert') throw new Error('noticeMetricAlert: wrong event');
      const values = { device: event.device, value: event.value, threshold: event.threshold };
      return {
        type: 'notice',
        title: fill(METRIC_ALERT_TEXTS.title, values),
        message: fill(METRIC_ALERT_TEXTS[event.metric], values),
        variant: 'warning',
        i18n: {
          title: { key: 'deviceSettings.metricAlert.title', values },
          message: { key: `deviceSettings.metricAlert.${event.metric}`, values },
        },
      };
    }),
    reset: enqueueActions(({ context, enqueue }) => {
      for (const ref of [...Object.values(context.forms), ...Object.values(context.actions)]) {
        enqueue.stopChild(ref);
      }
      enqueue.assign({ forms: {}, actions: {} });
    }),
  },
}).createMachine({
  id: 'deviceSettings',
  context: { forms: {}, actions: {} },
  invoke: { id: 'watchDevices', src: 'watchDevices' },
  on: {
    'settings.open': { actions: 'open' },
    'settings.changed': { actions: 'refresh' },
    'settings.metricAlert': { actions: 'noticeMetricAlert' },
    'settings.reset': { actions: 'reset' },
  },
});
