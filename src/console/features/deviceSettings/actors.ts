/**
 * The deviceSettings feature's long-lived actor (systemId 'deviceSettings', machines/deviceSettings/) with its
 * side effects: the forms read a section (get-device-settings-info) and save their change commands; the client
 * actions run restart-client-engine, restart-frp-client, force-refresh-device-settings and connect-cie; the
 * device's 'settings.changed' link events make the forms read again. Loaded after sign-in
 * (ConsoleFeature.loadActors).
 */
import { fromCallback, fromPromise, type EventObject } from 'xstate';
import { clientActionMachine } from '../../../../machines/deviceSettings/clientAction.machine';
import {
  deviceSettingsMachine,
  type AlertMetric,
  type DeviceSettingsEvent,
} from '../../../../machines/deviceSettings/deviceSettings.machine';
import { INFO_TYPES } from '../../../../machines/deviceSettings/settingsChecks';
import { settingsFormMachine } from '../../../../machines/deviceSettings/settingsForm.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { SettingsInfoType } from '../../../protocol/deviceSettings';
import type { Platform } from '../feature';
import { settingsCommands } from './api';
import { registerDeviceSettingsTexts } from './i18n';

/** The device's link event after its settings changed (the contract's SETTINGS_EVENTS.changed). */
export const SETTINGS_CHANGED = 'settings.changed';

/** The device's link event when a metric goes over its alert threshold (SETTINGS_EVENTS.metricAlert). */
export const SETTINGS_METRIC_ALERT = 'settings.metricAlert';

const ALERT_METRICS: readonly AlertMetric[] = ['cpu', 'gpu', 'memory', 'temperature'];

/**
 * The machine's `settings.metricAlert` event from a 'settings.metricAlert' link event's data
 * (`{ metric, value, threshold, label }`), or null when the data is not one.
 */
export function metricAlertEvent(deviceId: string, data: unknown): DeviceSettingsEvent | null {
  if (!data || typeof data !== 'object') return null;
  const d = data as Record<string, unknown>;
  const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  if (!ALERT_METRICS.includes(d.metric as AlertMetric) || !finite(d.value) || !finite(d.threshold))
    return null;
  const device = typeof d.label === 'string' && d.label.trim() ? d.label.trim().slice(0, 120) : deviceId;
  return {
    type: 'settings.metricAlert',
    deviceId,
    device,
    metric: d.metric as AlertMetric,
    value: d.value,
    threshold: d.threshold,
  };
}

/** The infoType of a 'settings.changed' event's data, null for "all" (or anything unexpected). */
export function changedInfoType(data: unknown): SettingsInfoType | null {
  const t = data && typeof data === 'object' ? (data as { infoType?: unknown }).infoType : null;
  return (INFO_TYPES as readonly unknown[]).includes(t) ? (t as SettingsInfoType) : null;
}

export function deviceSettingsActors({ peerLink }: Platform): FeatureActor[] {
  // Metric alert toasts may come before the Settings tab was ever opened.
  registerDeviceSettingsTexts();
  const commands = settingsCommands(peerLink.callDevice.bind(peerLink));
  const logic = deviceSettingsMachine.provide({
    actors: {
      settingsForm: settingsFormMachine.provide({
        actors: {
          loadSection: fromPromise(({ input }) => commands.section(input.deviceId, input.infoType)),
          saveChanges: fromPromise(({ input }) => commands.save(input.deviceId, input.changes)),
        },
      }),
      clientAction: clientActionMachine.provide({
        actors: {
          runAction: fromPromise(({ input }) => commands.run(input.deviceId, input.action, input.url)),
        },
      }),
      watchDevices: fromCallback<EventObject>(({ sendBack }) =>
        peerLink.onDeviceEvent((deviceId, name, data) => {
          if (name === SETTINGS_CHANGED) {
            sendBack({ type: 'settings.changed', deviceId, infoType: changedInfoType(data) });
          } else if (name === SETTINGS_METRIC_ALERT) {
            const alert = metricAlertEvent(deviceId, data);
            if (alert) sendBack(alert);
          }
        }),
      ),
    },
  });
  return [
    featureActor({ systemId: SYSTEM_IDS.deviceSettings, logic, onSignOut: [{ type: 'settings.reset' }] }),
  ];
}
