/**
 * The deviceSettings feature's long-lived actor (systemId 'deviceSettings', machines/deviceSettings/) with its
 * side effects: the forms read a section (get-device-settings-info) and save their change commands; the client
 * actions run restart-client-engine, restart-frp-client, force-refresh-device-settings and connect-cie; the
 * device's 'settings.changed' link events make the forms read again. Loaded after sign-in
 * (ConsoleFeature.loadActors).
 */
import { fromCallback, fromPromise, type EventObject } from 'xstate';
import { clientActionMachine } from '../../../../machines/deviceSettings/clientAction.machine';
import { deviceSettingsMachine } from '../../../../machines/deviceSettings/deviceSettings.machine';
import { INFO_TYPES } from '../../../../machines/deviceSettings/settingsChecks';
import { settingsFormMachine } from '../../../../machines/deviceSettings/settingsForm.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { SettingsInfoType } from '../../../protocol/deviceSettings';
import type { Platform } from '../feature';
import { settingsCommands } from './api';

/** The device's link event after its settings changed (the contract's SETTINGS_EVENTS.changed). */
export const SETTINGS_CHANGED = 'settings.changed';

/** The infoType of a 'settings.changed' event's data, null for "all" (or anything unexpected). */
export function changedInfoType(data: unknown): SettingsInfoType | null {
  const t = data && typeof data === 'object' ? (data as { infoType?: unknown }).infoType : null;
  return (INFO_TYPES as readonly unknown[]).includes(t) ? (t as SettingsInfoType) : null;
}

export function deviceSettingsActors({ peerLink }: Platform): FeatureActor[] {
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
          }
        }),
      ),
    },
  });
  return [
    featureActor({ systemId: SYSTEM_IDS.deviceSettings, logic, onSignOut: [{ type: 'settings.reset' }] }),
  ];
}
