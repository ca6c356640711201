/**
 * The device's storage part (§7 "Storage": get-occupied-storage-of-directory, get-total-storage-info, lists
 * of the three image kinds, delete of product data; §3 Storage item): `host` does it for real on this machine
 * (host.ts, walk.ts), `sim` simulates a Jetson or x86 device behind the same interface (sim.ts). This file
 * adds what both share: the running scans by id (at most SCANS_MAX at once, cancelable, all canceled by
 * close()).
 */
import { join } from 'node:path';
import type { DockerImage } from '../../protocol/containers';
import { NAME_MAX_CHARS, SCANS_MAX } from '../../protocol/storage';
import type { DirectoryUsage, ProductData, ScanProgress, TotalStorageInfo } from '../../protocol/storage';
import type { AgentPartDeps } from '../parts';
import { SCAN_CANCELED_TEXT, StorageError } from './errors';
import { createHostStorage } from './host';
import { createSimStorage } from './sim';
import type { StorageBackend } from './types';
import { largestFolders } from './walk';

export { StorageError } from './errors';
export { imageKind, imageList } from './images';

/** What one scan is asked. */
export interface ScanRequest {
  /** The caller's id for it (cancelScan). */
  scanId: string;
  /** Absolute path of the folder. */
  path: string;
  /** How many largest child folders to answer. */
  top: number;
  /** Progress as the walk goes (ScanProgress). */
  onProgress?: (progress: ScanProgress) => void;
  /** Aborts the scan (e.g. its link closed): it rejects StorageError 'canceled'. */
  signal?: AbortSignal;
}

export interface DeviceStorage {
  /** get-total-storage-info: storage filesystems (bytes). */
  totals(): Promise<TotalStorageInfo>;
  /**
   * get-occupied-storage-of-directory. Rejects StorageError 'busy' (SCANS_MAX scans run or one with this id),
   * 'not_found', 'not_directory', 'canceled'.
   */
  scan(request: ScanRequest): Promise<DirectoryUsage>;
  /** Cancels the scan with this id; false when none runs. */
  cancelScan(scanId: string): boolean;
  /** The product data folders with their sizes. */
  productData(): Promise<ProductData>;
  /** delete-product-data (StorageBackend.deleteProductData). */
  deleteProductData(path: string): Promise<{ path: string; freed: number; files: number }>;
  /** Images the container engine does not list (StorageBackend.extraImages). */
  extraImages(): DockerImage[];
  /** Cancels every running scan; idempotent. */
  close(): Promise<void>;
}

export interface DeviceStorageOptions {
  /** Root of the product data folders (host). Default `<stateDir>/product-data`. */
  productDataDir?: string;
  /** Time one folder of a sim scan takes, ms (sim.ts; default 60). */
  simStepMs?: number;
  /** The backend to use instead of host/sim (tests). */
  backend?: StorageBackend;
  /** Progress of a scan goes out at most this often, ms (default SCAN_PROGRESS_MS). */
  progressEveryMs?: number;
  /** A scan running longer is stopped ('canceled'), ms (default SCAN_MAX_MS). */
  scanMaxMs?: number;
}

/** Progress messages of one scan are at least this far apart, ms (≤ 10 per second on the link). */
export const SCAN_PROGRESS_MS = 100;
/** The longest a scan may run, ms (a scan nobody waits for any more ends by itself). */
export const SCAN_MAX_MS = 15 * 60_000;

/** The storage part of one device: host.ts or sim.ts by `deps.mode`, with the scan registry. */
export function createDeviceStorage(deps: AgentPartDeps, options: DeviceStorageOptions = {}): DeviceStorage {
  const backend =
    options.backend ??
    (deps.mode === 'host'
      ? createHostStorage({ productDataDir: options.productDataDir ?? join(deps.stateDir, 'product-data') })
      : createSimStorage({ kind: deps.backend.kind, stepMs: options.simStepMs }));
  const scans = new Map<string, AbortController>();
  let closed = false;

  return {
    totals: () => backend.totals(),

    async scan({ scanId, path, top, onProgress, signal }) {
      if (closed) throw new StorageError('canceled', SCAN_CANCELED_TEXT);
      if (scans.has(scanId)) throw new StorageError('busy', `A scan with id ${scanId} is running`);
      if (scans.size >= SCANS_MAX) {
        throw new StorageError('busy', `${SCANS_MAX} scans are running; wait for one to end`);
      }
      const abort = new AbortController();
      const onAbort = () => abort.abort();
      if (signal?.aborted) abort.abort();
      signal?.addEventListener('abort', onAbort, { once: true });
      scans.set(scanId, abort);
      const started = Date.now();
      const maxMs = options.scanMaxMs ?? SCAN_MAX_MS;
      const tooLong = setTimeout(
        () =>
          abort.abort(
            new StorageError('canceled', `The scan ran longer than ${maxMs / 1000} s and was stopped`),
          ),
        maxMs,
      );
      tooLong.unref?.();
      const every = options.progressEveryMs ?? SCAN_PROGRESS_MS;
      let lastProgress = 0;
      deps.log.info('storage scan started', { scanId, path: path.slice(0, 200) });
      try {
        const walked = await backend.scan(path, {
          signal: abort.signal,
          onProgress: (c) => {
            const now = Date.now();
            if (now - lastProgress < every) return;
            lastProgress = now;
            onProgress?.({ scan_id: scanId, ...c });
          },
        });
        return {
          scan_id: scanId,
          path: path.slice(0, NAME_MAX_CHARS),
          files: walked.files,
          dirs: walked.dirs,
          bytes: walked.bytes,
          errors: walked.errors,
          largest: largestFolders(walked.children, top, NAME_MAX_CHARS),
          duration_ms: Date.now() - started,
        };
      } finally {
        clearTimeout(tooLong);
        signal?.removeEventListener('abort', onAbort);
        scans.delete(scanId);
      }
    },

    cancelScan(scanId) {
      const abort = scans.get(scanId);
      if (!abort) return false;
      abort.abort();
      return true;
    },

    productData: () => backend.productData(),

    async deleteProductData(path) {
      const result = await backend.deleteProductData(path);
      deps.log.info('product data deleted', { path: result.path.slice(0, 200), freed: result.freed });
      return result;
    },

    extraImages: () => backend.extraImages(),

    async close() {
      closed = true;
      for (const abort of scans.values()) abort.abort();
    },
  };
}
