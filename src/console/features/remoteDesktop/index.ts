/**
 * The remote desktop feature (spec §1 "control a remote desktop"; §2 stream modal; §3 Stream remoteDesktop
 * flag, openWindows; §7 keyboard-control, scroll-mouse, mouse-drag, mouse-control, close-remote-window; §9
 * mouse move 100 ms, 1280x720, frame-rate interval 2000 ms, resize 200 ms): the device page's Remote desktop
 * tab, the desktop in the stream modal slot, and the remoteDesktop actor (machines/remoteDesktop/), loaded
 * after sign-in.
 */
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';
import { RemoteDesktopSlot } from './screens/RemoteDesktopSlot';

export const remoteDesktop: ConsoleFeature = {
  name: 'remoteDesktop',
  loadActors: () => import('./actors').then((m) => m.remoteDesktopActors),
  deviceTabs: [
    {
      id: 'desktop',
      label: 'remoteDesktop.tab',
      order: 25,
      panel: lazyScreen(() => import('./screens/RemoteDesktopTab')),
    },
  ],
  signedInSlots: [RemoteDesktopSlot],
};
