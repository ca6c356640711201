/**
 * Root-shell slots of §2 filled by later issues: the upload-notification button (§2 "Upload
 * notification": a floating button while uploads run) and the stream modal (§2 "Stream modal"). Both
 * render nothing until there is something to show.
 */

/** §2 Upload notification: no uploads exist yet (a later issue adds the uploads actor). */
export function UploadNotificationSlot() {
  return null;
}

/** §2 Stream modal: opened by application streams in a later issue; empty now. */
export function StreamModalSlot() {
  return null;
}
