/**
 * The storage feature's device commands (§7 "Storage": get-occupied-storage-of-directory,
 * get-total-storage-info, lists of the three image kinds, delete of product data; §3 Storage item).
 * Shapes the spec does not give ("not shown") are ours, documented field by field with units.
 *
 * - Sizes are bytes (integers), durations ms.
 * - §3 Storage item's three image kinds (`imageType`) are `product` (the product's own images: the `edge/`
 *   namespace of the environment catalogue), `inference-engine` (inference runtimes: Triton, TensorRT,
 *   DeepStream…) and `companion` (every other image: services running beside the product, e.g. a broker).
 * - *Product data* is the product's own data on the device, in three folders under one root:
 *   `recordings` (camera recordings), `models` (downloaded models) and `cache` (caches). Only what lies
 *   inside them can be deleted.
 * - One link message is at most ~16 KB: a scan reports progress as it goes and answers the total with at most
 *   SCAN_LARGEST_MAX largest folders; image lists hold at most IMAGES_MAX images per kind.
 */
import { z } from 'zod';
import { defineCommands, Empty } from './command';

/** Most largest child folders a scan answers. */
export const SCAN_LARGEST_MAX = 30;
/** Most images a list answers per kind (the rest are counted in `count` and `bytes`). */
export const IMAGES_MAX = 40;
/** Most RepoTags shown per image. */
export const REPO_TAGS_MAX = 8;
/** Most filesystems get-total-storage-info answers. */
export const FILESYSTEMS_MAX = 40;
/** Names (folder names, mount points) are cut to this many characters in replies. */
export const NAME_MAX_CHARS = 256;
/** Most scans one device runs at once (another answers 'busy'). */
export const SCANS_MAX = 3;

/** Error codes of this feature beyond LINK_ERROR_CODES (link.ts). */
export const STORAGE_ERROR_CODES = {
  /** The scan was canceled (cancel-storage-scan, or its link closed). */
  canceled: 'canceled',
  /** A delete named a path outside the product data folders. */
  forbidden: 'forbidden',
  /** The path is not a directory. */
  notDirectory: 'not_directory',
} as const;

/** An absolute POSIX path: starts with '/', 1–4096 characters, no NUL. */
export const AbsolutePath = z
  .string()
  .min(1)
  .max(4096)
  .regex(/^\/[^\0]*$/, 'Use an absolute path (starting with "/")')
  .meta({ examples: ['/', '/var/lib'] });

/** A scan's id, chosen by the caller (to cancel it): 1–64 of [A-Za-z0-9_-]. */
export const ScanId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not a scan id')
  .meta({ examples: ['scan-1'] });

/** One mounted filesystem (get-total-storage-info). size/used/free: bytes; free is what a user may use. */
export const Filesystem = z.object({
  /** Mount point, e.g. '/'. */
  mount: z.string(),
  /** The mounted device, e.g. '/dev/mmcblk0p1'. */
  device: z.string(),
  /** Filesystem type, e.g. 'ext4'. */
  type: z.string(),
  size: z.number().int().min(0),
  used: z.number().int().min(0),
  free: z.number().int().min(0),
});
export type Filesystem = z.infer<typeof Filesystem>;

/** get-total-storage-info's reply: the device's storage filesystems and their sum (bytes). */
export const TotalStorageInfo = z.object({
  filesystems: z.array(Filesystem).max(FILESYSTEMS_MAX),
  total: z.object({
    size: z.number().int().min(0),
    used: z.number().int().min(0),
    free: z.number().int().min(0),
  }),
});
export type TotalStorageInfo = z.infer<typeof TotalStorageInfo>;

/** Progress of a scan (link `progress` data): what was walked so far. */
export const ScanProgress = z.object({
  scan_id: z.string(),
  /** Files seen so far. */
  files: z.number().int().min(0),
  /** Folders seen so far. */
  dirs: z.number().int().min(0),
  /** Bytes of the files seen so far (allocated size on disk). */
  bytes: z.number().int().min(0),
  /** Entries that could not be read (permission denied, vanished). */
  errors: z.number().int().min(0),
});
export type ScanProgress = z.infer<typeof ScanProgress>;

/** A child folder of the scanned directory and its total size in bytes (files directly in it: name '.'). */
export const FolderSize = z.object({ name: z.string(), bytes: z.number().int().min(0) });
export type FolderSize = z.infer<typeof FolderSize>;

/** get-occupied-storage-of-directory's reply. */
export const DirectoryUsage = ScanProgress.extend({
  path: z.string(),
  /** The largest child folders, largest first, at most SCAN_LARGEST_MAX. */
  largest: z.array(FolderSize).max(SCAN_LARGEST_MAX),
  /** How long the scan took, ms. */
  duration_ms: z.number().int().min(0),
});
export type DirectoryUsage = z.infer<typeof DirectoryUsage>;

/** §3 Storage item imageType: the three image kinds. */
export const ImageKind = z.enum(['product', 'inference-engine', 'companion']);
export type ImageKind = z.infer<typeof ImageKind>;
export const IMAGE_KINDS: readonly ImageKind[] = ImageKind.options;

/** An image as the storage lists show it (§3: Docker images have RepoTags and Size, bytes). */
export const StorageImage = z.object({
  Id: z.string(),
  RepoTags: z.array(z.string()).max(REPO_TAGS_MAX),
  Size: z.number().int().min(0),
});
export type StorageImage = z.infer<typeof StorageImage>;

/** One kind's images: at most IMAGES_MAX, largest first; count and bytes cover all of them. */
export const ImageList = z.object({
  kind: ImageKind,
  images: z.array(StorageImage).max(IMAGES_MAX),
  count: z.number().int().min(0),
  bytes: z.number().int().min(0),
});
export type ImageList = z.infer<typeof ImageList>;

/** The product data folders (what delete-product-data may delete inside). */
export const ProductDataFolderId = z.enum(['recordings', 'models', 'cache']);
export type ProductDataFolderId = z.infer<typeof ProductDataFolderId>;

/** A product data folder: its absolute path and what is in it (bytes, files). */
export const ProductDataFolder = z.object({
  id: ProductDataFolderId,
  path: z.string(),
  bytes: z.number().int().min(0),
  files: z.number().int().min(0),
});
export type ProductDataFolder = z.infer<typeof ProductDataFolder>;

export const ProductData = z.object({
  /** The folder holding the three product data folders. */
  root: z.string(),
  folders: z.array(ProductDataFolder),
});
export type ProductData = z.infer<typeof ProductData>;

export const storageCommands = defineCommands({
  /**
   * The device's storage: every mounted filesystem backed by storage (pseudo filesystems left out; at most
   * FILESYSTEMS_MAX, largest first) with size, used and free bytes, and their total.
   */
  'get-total-storage-info': { request: Empty, reply: TotalStorageInfo },
  /**
   * Walks `path` (symlinks not followed; unreadable entries counted in `errors`, not fatal) and answers its
   * occupied size and its `top` largest child folders. Sends ScanProgress as link `progress` messages while
   * it runs. Fails: 'not_found' (no such path), 'not_directory', 'busy' (SCANS_MAX scans run, or one with
   * this scan_id), 'canceled' (cancel-storage-scan).
   */
  'get-occupied-storage-of-directory': {
    request: z.object({
      path: AbsolutePath,
      scan_id: ScanId,
      top: z.number().int().min(1).max(SCAN_LARGEST_MAX).default(10),
    }),
    reply: DirectoryUsage,
  },
  /** Cancels a running scan (ours); canceled false when no scan with this id runs. */
  'cancel-storage-scan': {
    request: z.object({ scan_id: ScanId }),
    reply: z.object({ canceled: z.boolean() }),
  },
  /**
   * One of the three image kinds of §3 Storage item (classified from the device's images; see the module
   * docstring). 'engine_unavailable' when no Docker engine answers.
   */
  'get-storage-images': { request: z.object({ kind: ImageKind }), reply: ImageList },
  /** The product data folders with their sizes. */
  'get-product-data': { request: Empty, reply: ProductData },
  /**
   * Deletes product data: `path` is a product data folder (its contents are deleted, the folder stays) or
   * anything inside one. `confirm` must be true (the console asks first). Fails: 'forbidden' (outside the
   * product data folders, or through a symlink), 'not_found'.
   */
  'delete-product-data': {
    request: z.object({ path: AbsolutePath, confirm: z.literal(true) }),
    reply: z.object({
      path: z.string(),
      /** Bytes freed. */
      freed: z.number().int().min(0),
      /** Files deleted. */
      files: z.number().int().min(0),
    }),
  },
});
