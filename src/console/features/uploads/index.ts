/**
 * The uploads feature (issue 9 "Uploads"; spec §2 "Upload notification", §3 Upload entity, §4 Upload, §7
 * `upload-model` as a tus upload, §8 upload toasts): resumable tus uploads started by other features' screens
 * (`useStartUpload()`), run by the uploads actor (systemId `uploads`) across route changes, reloads, dropped
 * networks and server restarts, shown in the root shell's floating button and "Upload Progresses" dialog.
 * Loaded after sign-in.
 */
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { ConsoleFeature } from '../feature';
import { UploadNotificationSlot } from './UploadNotificationSlot';

export { startUpload, useStartUpload, uploadToView, uploadsToView } from './selectors';
export type { UploadView, UploadsView } from './selectors';

export const uploads: ConsoleFeature = {
  name: 'uploads',
  loadActors: () => import('./actors').then((m) => m.uploadsActors),
  notices: [{ systemId: SYSTEM_IDS.uploads }],
  signedInSlots: [UploadNotificationSlot],
};
