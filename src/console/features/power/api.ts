/**
 * The power feature's device commands over the peer link (§7 restartItself, restartDevice, shutDownDevice,
 * force-shut-down; "Sudo": check-sudo-saved, check-sudo, remove-saved-sudo), typed by the command registry.
 * Failures reject with the platform's DeviceCommandError { code, message }: invalid_password "Invalid
 * Password.", sudo_required "Sudo privileged is required", force_failed "Unable to force shut down the
 * device", power_disabled, power_failed (src/protocol/power.ts POWER_ERROR_CODES).
 */
import type { PowerActionKind } from '../../../../machines/power/powerAction.machine';
import type { CallDevice } from '../../platform/peerLink';

/** Time allowed for a sudo check (host sudo may pause ~2 s after a wrong password), ms. */
const SUDO_CALL_MS = 20_000;

export function powerCommands(call: CallDevice) {
  return {
    /** check-sudo-saved → { saved, needed }. */
    sudoStatus: (deviceId: string) => call(deviceId, 'check-sudo-saved', {}),
    /** check-sudo → { valid, saved }; save keeps it encrypted on the device. */
    checkSudo: (deviceId: string, password: string, save: boolean) =>
      call(deviceId, 'check-sudo', { password, save }, { timeoutMs: SUDO_CALL_MS }),
    /** remove-saved-sudo → { removed }. */
    removeSaved: (deviceId: string) => call(deviceId, 'remove-saved-sudo', {}),
    /** The action's command, with the password just checked (null: the saved one, or none needed). */
    send(deviceId: string, action: PowerActionKind, password: string | null) {
      const body = password === null ? {} : { password };
      const options = { timeoutMs: SUDO_CALL_MS };
      switch (action) {
        case 'reboot':
          return call(deviceId, 'restartDevice', body, options);
        case 'shutdown':
          return call(deviceId, 'shutDownDevice', body, options);
        case 'forceShutdown':
          return call(deviceId, 'force-shut-down', body, options);
        case 'restartClient':
          return call(deviceId, 'restartItself', {}, options);
      }
    },
  };
}
