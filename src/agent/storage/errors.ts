/** Why a storage call failed (the handlers turn these into CommandErrors with the same code). */
export type StorageErrorCode = 'not_found' | 'not_directory' | 'busy' | 'canceled' | 'forbidden';

/** A storage failure with a code (STORAGE_ERROR_CODES / LINK_ERROR_CODES) and a message a user can act on. */
export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

/** The message of a canceled scan. */
export const SCAN_CANCELED_TEXT = 'The scan was canceled';

/** Why `signal` was aborted: its reason when that is a StorageError, else 'canceled' (SCAN_CANCELED_TEXT). */
export function canceledError(signal: AbortSignal | undefined): StorageError {
  return signal?.reason instanceof StorageError
    ? signal.reason
    : new StorageError('canceled', SCAN_CANCELED_TEXT);
}

/** Throws canceledError(signal) when `signal` is aborted. */
export function throwIfCanceled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw canceledError(signal);
}
