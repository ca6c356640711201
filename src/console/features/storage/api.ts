/**
 * The storage feature's device commands (§7 "Storage"; src/protocol/storage.ts) over the peer link, typed by
 * the command registry. Calls reject with DeviceCommandError { code, message } (platform/): the device's
 * codes ('not_found', 'busy', 'canceled', 'forbidden', 'not_directory', 'engine_unavailable'), 'timeout',
 * 'link_closed'. Only types come from the protocol module (zod stays out of this chunk).
 */
import type { DeletedData, StorageOverview } from '../../../../machines/storage/storage.machine';
import type { DirectoryUsage, ImageKind, ScanProgress } from '../../../protocol/storage';
import type { CallDevice } from '../../platform/peerLink';

/** §3 Storage item's three image kinds, in the order the tab shows them. */
export const IMAGE_KIND_ORDER: readonly ImageKind[] = ['product', 'inference-engine', 'companion'];
/** Time allowed without a word from the device during a scan (each progress message restarts it), ms. */
export const SCAN_SILENCE_MS = 60_000;

/** Whether a progress message's data is a ScanProgress (the link does not validate progress data). */
export function isScanProgress(data: unknown): data is ScanProgress {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as Record<string, unknown>;
  return (
    typeof d['scan_id'] === 'string' &&
    ['files', 'dirs', 'bytes', 'errors'].every((k) => typeof d[k] === 'number' && (d[k] as number) >= 0)
  );
}

export function storageCommands(call: CallDevice) {
  return {
    /** get-total-storage-info, get-storage-images (each kind) and get-product-data, at once. */
    async overview(deviceId: string): Promise<StorageOverview> {
      const [totals, images, productData] = await Promise.all([
        call(deviceId, 'get-total-storage-info', {}),
        Promise.all(IMAGE_KIND_ORDER.map((kind) => call(deviceId, 'get-storage-images', { kind }))),
        call(deviceId, 'get-product-data', {}),
      ]);
      return { totals, images, productData };
    },

    /** get-occupied-storage-of-directory with its progress; `signal` stops waiting (the device goes on). */
    async scan(
      deviceId: string,
      request: { path: string; scanId: string; top: number },
      onProgress: (progress: ScanProgress) => void,
      signal: AbortSignal,
    ): Promise<DirectoryUsage> {
      return call(
        deviceId,
        'get-occupied-storage-of-directory',
        { path: request.path, scan_id: request.scanId, top: request.top },
        {
          onProgress: (data) => {
            if (isScanProgress(data)) onProgress(data);
          },
          signal,
          timeoutMs: SCAN_SILENCE_MS,
        },
      );
    },

    /** cancel-storage-scan → whether a scan was running. */
    async cancelScan(deviceId: string, scanId: string): Promise<boolean> {
      return (await call(deviceId, 'cancel-storage-scan', { scan_id: scanId })).canceled;
    },

    /** delete-product-data (confirmed by the user first). */
    async deleteProductData(deviceId: string, path: string): Promise<DeletedData> {
      return call(deviceId, 'delete-product-data', { path, confirm: true });
    },
  };
}
