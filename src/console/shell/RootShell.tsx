/**
 * The root shell of §2: the progress bar, the routed view, the upload-notification button, the stream
 * modal and the generic dialog; toasts come from `notice` emissions (NoticeBridge).
 */
import { Outlet } from 'react-router-dom';
import { DialogSlot } from './DialogSlot';
import { NoticeBridge } from './NoticeBridge';
import { ProgressBar } from './ProgressBar';
import { StreamModalSlot, UploadNotificationSlot } from './Slots';

export function RootShell() {
  return (
    <>
      <ProgressBar />
      <NoticeBridge />
      <Outlet />
      <UploadNotificationSlot />
      <StreamModalSlot />
      <DialogSlot />
    </>
  );
}
