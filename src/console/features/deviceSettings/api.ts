/**
 * The deviceSettings feature's device commands (src/protocol/deviceSettings.ts; spec §7 "Client and settings",
 * "Settings changes"). Each reply is §8's `{ data, error }`: `data` is answered; `error` (data null) is thrown
 * as a DeviceCommandError { code, message } carrying the device's words, as link failures are (timeout,
 * link_closed, invalid_payload). No zod here (types only).
 */
import type { SettingsChange } from '../../../../machines/deviceSettings/settingsChecks';
import type { ClientActionName } from '../../../../machines/deviceSettings/clientAction.machine';
import type { DeviceSettingsInfo, SettingsInfoType, SettingsReply } from '../../../protocol/deviceSettings';
import { DeviceCommandError } from '../../platform/linkShared';
import type { CallDevice } from '../../platform/peerLink';

/** Time allowed for a restart, a refresh or reaching a CIE (they answer when done), ms. */
export const SETTINGS_ACTION_TIMEOUT_MS = 60_000;

/** The data of a `{ data, error }` reply, or its error thrown. */
export function unwrap<T>(process: string, reply: SettingsReply<T>): T {
  if (reply.error !== null) throw new DeviceCommandError(reply.error.code, reply.error.message, process);
  return reply.data;
}

export function settingsCommands(call: CallDevice) {
  return {
    /** get-device-settings-info → one section. */
    async section(deviceId: string, infoType: SettingsInfoType): Promise<DeviceSettingsInfo> {
      return unwrap(
        'get-device-settings-info',
        await call(deviceId, 'get-device-settings-info', { infoType }),
      );
    },
    /** The change commands of a save, in order; the first refusal is thrown (the rest are not sent). */
    async save(deviceId: string, changes: readonly SettingsChange[]): Promise<void> {
      for (const c of changes) {
        const reply = (await call(deviceId, c.process, c.payload as never)) as SettingsReply<unknown>;
        unwrap(c.process, reply);
      }
    },
    /** restart-client-engine | restart-frp-client | force-refresh-device-settings | connect-cie { url }. */
    async run(deviceId: string, action: ClientActionName, url: string): Promise<void> {
      const options = { timeoutMs: SETTINGS_ACTION_TIMEOUT_MS };
      switch (action) {
        case 'restartEngine':
          unwrap(action, await call(deviceId, 'restart-client-engine', {}, options));
          return;
        case 'restartFrp':
          unwrap(action, await call(deviceId, 'restart-frp-client', {}, options));
          return;
        case 'refresh':
          unwrap(action, await call(deviceId, 'force-refresh-device-settings', {}, options));
          return;
        case 'connectCie':
          unwrap(action, await call(deviceId, 'connect-cie', { url }, options));
          return;
      }
    },
  };
}

export type SettingsCommands = ReturnType<typeof settingsCommands>;
