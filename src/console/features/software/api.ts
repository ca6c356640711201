/**
 * The software feature's device commands over the peer link (§7 check-version-update,
 * check-stream-engine-update, check-companion-update, check-companion-restart, get-download-upload-status;
 * §4 update-client, restart-client-update), typed by the command registry. Failures reject with the
 * platform's DeviceCommandError { code, message }: the §4 error types notEnoughStorage, downloadError, other
 * (src/protocol/software.ts UPDATE_ERROR_CODES), or the link's own (timeout, link_closed…).
 */
import type { CheckOp } from '../../../../machines/software/software.machine';
import type { CallDevice } from '../../platform/peerLink';

/** Time allowed without a word from the device during an update (each progress message restarts it), ms. */
const UPDATE_SILENCE_MS = 120_000;
/** Time allowed for a check (the device asks the server, or Docker), ms. */
const CHECK_MS = 30_000;

export function softwareCommands(call: CallDevice) {
  return {
    /** One check of the tab → the device's reply (VersionCheck or ComponentCheck). */
    check(deviceId: string, op: CheckOp): Promise<unknown> {
      const options = { timeoutMs: CHECK_MS };
      switch (op) {
        case 'version':
          return call(deviceId, 'check-version-update', {}, options);
        case 'status':
          return call(deviceId, 'get-download-upload-status', {}, options);
        case 'stream-engine':
          return call(deviceId, 'check-stream-engine-update', {}, options);
        case 'companion-update':
          return call(deviceId, 'check-companion-update', {}, options);
        case 'companion-restart':
          return call(deviceId, 'check-companion-restart', {}, options);
      }
    },
    /** check-version-update. */
    versionCheck: (deviceId: string) => call(deviceId, 'check-version-update', {}, { timeoutMs: CHECK_MS }),
    /** update-client; `onProgress` gets the device's UpdateStatus messages (unvalidated). */
    update: (
      deviceId: string,
      version: string | null,
      onProgress: (data: unknown) => void,
      signal?: AbortSignal,
    ) =>
      call(deviceId, 'update-client', version ? { version } : {}, {
        timeoutMs: UPDATE_SILENCE_MS,
        onProgress,
        signal,
      }),
    /** restart-client-update. */
    restart: (deviceId: string) => call(deviceId, 'restart-client-update', {}),
  };
}
