/**
 * The ipCameras feature (issue 16 §2 IP cameras; §3 IP camera; §7 ip-cameras, remove-ip-camera): an "IP
 * cameras…" button in the header on the camera page opens the manager (add with a Test still through the device
 * that will reach the camera, edit, remove). Its actor (systemId 'ipCameras', machines/ipCameras/) loads after
 * sign-in in its own chunk. components/ImagePreviewDialog.tsx is the §9 image preview (3 per row).
 */
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const ipCameras: ConsoleFeature = {
  name: 'ipCameras',
  loadActors: () => import('./actors').then((m) => m.ipCamerasActors),
  headerSlots: [lazyScreen(() => import('./screens/IpCamerasSlot'))],
};
