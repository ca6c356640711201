/**
 * The remote desktop's device calls (§7 remote control commands, get-open-windows), typed by the command
 * registry; callDevice is the peer link's (platform/peerLink.ts).
 */
import type { CallDevice } from '../../platform/peerLink';
import type { DesktopInputEvent } from '../../../../machines/remoteDesktop/remoteDesktop.machine';

export function remoteDesktopCommands(callDevice: CallDevice) {
  return {
    /** Sends one input event as its command. */
    send(deviceId: string, event: DesktopInputEvent): Promise<unknown> {
      switch (event.type) {
        case 'input.mouse':
          return callDevice(deviceId, 'mouse-control', event.payload);
        case 'input.drag':
          return callDevice(deviceId, 'mouse-drag', event.payload);
        case 'input.scroll':
          return callDevice(deviceId, 'scroll-mouse', event.payload);
        case 'input.keyboard':
          return callDevice(deviceId, 'keyboard-control', event.payload);
      }
    },
    windows: (deviceId: string) => callDevice(deviceId, 'get-open-windows', {}),
    closeWindow: (deviceId: string, windowId: string) =>
      callDevice(deviceId, 'close-remote-window', { window_id: windowId }),
  };
}
export type RemoteDesktopCommands = ReturnType<typeof remoteDesktopCommands>;
