/** What a storage backend (host.ts for real, sim.ts simulated) does; index.ts adds the scan registry. */
import type { DockerImage } from '../../protocol/containers';
import type { ProductData, TotalStorageInfo } from '../../protocol/storage';
import type { WalkOptions, WalkResult } from './walk';

export interface StorageBackend {
  /** The device's storage filesystems and their total (bytes). */
  totals(): Promise<TotalStorageInfo>;
  /**
   * Walks a folder (walk.ts semantics). Rejects StorageError 'not_found', 'not_directory', 'canceled' (when
   * options.signal aborts).
   */
  scan(path: string, options: WalkOptions): Promise<WalkResult>;
  /** The product data folders (recordings, models, cache) with their sizes. */
  productData(): Promise<ProductData>;
  /**
   * Deletes a product data folder's contents or something inside one; answers the bytes and files freed.
   * Rejects StorageError 'forbidden' (outside them or through a symlink), 'not_found'.
   */
  deleteProductData(path: string): Promise<{ path: string; freed: number; files: number }>;
  /**
   * Images of the device that its container engine does not list: none on `host`; on `sim`, the simulated
   * device's inference-engine and companion-service images (the sim engine only holds environments).
   */
  extraImages(): DockerImage[];
}
