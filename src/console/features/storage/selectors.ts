/**
 * What the Storage tab shows, read from the storage actor (systemId 'storage') and its scans: pure
 * `*ToView(snapshot)` functions (unit-tested without React) and the hooks the screens use. Sizes stay in
 * bytes; `formatBytes` writes them in binary units (KiB, MiB, GiB, TiB) for the interface language.
 */
import { shallowEqual, useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { directoryScanMachine, ScanFailure } from '../../../../machines/storage/directoryScan.machine';
import type { DeletedData, ScanRef, storageMachine } from '../../../../machines/storage/storage.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { ImageKind, ProductDataFolderId } from '../../../protocol/storage';
import { actorOf, useSystem } from '../../shell/SystemProvider';

type StorageSnapshot = SnapshotFrom<typeof storageMachine>;
type ScanSnapshot = SnapshotFrom<typeof directoryScanMachine>;
export type StorageRef = ActorRefFrom<typeof storageMachine>;

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/** Bytes in binary units with one decimal (whole bytes below 1 KiB), e.g. 1536 → "1.5 KiB". */
export function formatBytes(bytes: number, locale = 'en'): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 ? 0 : 1;
  return `${value.toLocaleString(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${UNITS[unit]}`;
}

/** Share of `part` in `whole` as a whole percent 0–100 (0 when whole is 0). */
export const percentOf = (part: number, whole: number): number =>
  whole > 0 ? Math.min(100, Math.max(0, Math.round((100 * part) / whole))) : 0;

export interface FilesystemRow {
  mount: string;
  device: string;
  type: string;
  size: number;
  used: number;
  free: number;
  /** Used share of the size, %. */
  percent: number;
}

export interface ImageRow {
  id: string;
  tags: string[];
  size: number;
}

export interface ImageKindView {
  kind: ImageKind;
  rows: ImageRow[];
  /** All images of the kind (rows may be fewer: the device sends at most 40). */
  count: number;
  bytes: number;
}

export interface ProductFolderRow {
  id: ProductDataFolderId;
  path: string;
  bytes: number;
  files: number;
}

/** What a delete waits confirmation for: a product data folder's contents (id set) or a path inside one. */
export interface ConfirmView {
  path: string;
  id: ProductDataFolderId | null;
  bytes: number | null;
  files: number | null;
}

export interface StorageView {
  deviceId: string | null;
  loading: boolean;
  loaded: boolean;
  loadError: ScanFailure | null;
  filesystems: FilesystemRow[];
  total: { size: number; used: number; free: number; percent: number } | null;
  images: ImageKindView[];
  productRoot: string | null;
  productFolders: ProductFolderRow[];
  scans: ScanRef[];
  /** The delete waiting for confirmation, or null. */
  confirming: ConfirmView | null;
  deleting: boolean;
  deleteError: ScanFailure | null;
  lastDeleted: DeletedData | null;
}

/** The Storage tab's view of the storage actor. */
export function storageToView(s: StorageSnapshot): StorageView {
  const c = s.context;
  const o = c.overview;
  const folders: ProductFolderRow[] = o ? o.productData.folders.map((f) => ({ ...f })) : [];
  const confirmingPath = s.hasTag('confirming') ? c.pendingDelete : null;
  return {
    deviceId: c.deviceId,
    loading: s.hasTag('loading'),
    loaded: o !== null,
    loadError: c.loadError,
    filesystems: o
      ? o.totals.filesystems.map((f) => ({ ...f, percent: percentOf(f.used, f.used + f.free) }))
      : [],
    total: o
      ? {
          ...o.totals.total,
          percent: percentOf(o.totals.total.used, o.totals.total.used + o.totals.total.free),
        }
      : null,
    images: o
      ? o.images.map((list) => ({
          kind: list.kind,
          rows: list.images.map((i) => ({ id: i.Id, tags: i.RepoTags, size: i.Size })),
          count: list.count,
          bytes: list.bytes,
        }))
      : [],
    productRoot: o ? o.productData.root : null,
    productFolders: folders,
    scans: c.scans,
    confirming: confirmingPath
      ? (folders.find((f) => f.path === confirmingPath) ?? {
          path: confirmingPath,
          id: null,
          bytes: null,
          files: null,
        })
      : null,
    deleting: s.hasTag('deleting'),
    deleteError: c.deleteError,
    lastDeleted: c.lastDeleted,
  };
}

export type ScanStatus = 'scanning' | 'canceling' | 'done' | 'failed' | 'canceled';

export interface LargestFolderRow {
  name: string;
  bytes: number;
  /** Its share of the largest one, % (the bar's length). */
  bar: number;
  /** Its share of the scanned folder's total, %. */
  share: number;
}

export interface ScanView {
  scanId: string;
  path: string;
  status: ScanStatus;
  running: boolean;
  files: number;
  dirs: number;
  bytes: number;
  errors: number;
  largest: LargestFolderRow[];
  error: ScanFailure | null;
  durationMs: number | null;
}

/** One scan's view. */
export function scanToView(s: ScanSnapshot): ScanView {
  const c = s.context;
  const p = c.progress;
  const largest = c.usage?.largest ?? [];
  const max = largest.reduce((m, f) => Math.max(m, f.bytes), 0);
  return {
    scanId: c.scanId,
    path: c.path,
    status: s.value as ScanStatus,
    running: s.hasTag('running'),
    files: p?.files ?? 0,
    dirs: p?.dirs ?? 0,
    bytes: p?.bytes ?? 0,
    errors: p?.errors ?? 0,
    largest: largest.map((f) => ({
      name: f.name,
      bytes: f.bytes,
      bar: percentOf(f.bytes, max),
      share: percentOf(f.bytes, c.usage?.bytes ?? 0),
    })),
    error: c.error,
    durationMs: c.usage?.duration_ms ?? null,
  };
}

const storageViewEqual = (a: StorageView, b: StorageView) =>
  Object.keys(a).every((k) =>
    k === 'scans'
      ? shallowEqual(a.scans, b.scans)
      : JSON.stringify(a[k as keyof StorageView]) === JSON.stringify(b[k as keyof StorageView]),
  );

export const useStorageRef = (): StorageRef => actorOf<StorageRef>(useSystem(), SYSTEM_IDS.storage);

export function useStorageView(): StorageView {
  return useSelector(useStorageRef(), storageToView, storageViewEqual);
}

export function useScanView(ref: ScanRef): ScanView {
  return useSelector(ref, scanToView, (a, b) => JSON.stringify(a) === JSON.stringify(b));
}
