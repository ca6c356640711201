/**
 * Pure views of the uploads actor and its upload actors (spec §2 "Upload notification": a progress bar per file
 * with name, percent and cancel; success or failure lines) and their hooks, plus `useStartUpload()`, the way a
 * screen of another feature starts an upload.
 */
import { useSelector } from '@xstate/react';
import { useCallback } from 'react';
import type { ActorRefFrom, AnyActorRef, SnapshotFrom } from 'xstate';
import type { uploadMachine } from '../../../../machines/uploads/upload.machine';
import type { UploadResultLine, uploadsMachine } from '../../../../machines/uploads/uploads.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { actorOf, useSystem, type ConsoleSystem } from '../../shell/SystemProvider';

export type UploadsSnapshot = SnapshotFrom<typeof uploadsMachine>;
export type UploadSnapshot = SnapshotFrom<typeof uploadMachine>;
export type UploadRef = ActorRefFrom<typeof uploadMachine>;

/** The notification's view: running uploads (oldest first), finished lines, and whether the button shows. */
export interface UploadsView {
  ids: string[];
  results: UploadResultLine[];
  /** §2: the floating button shows while uploads run (and until their result lines are closed). */
  visible: boolean;
}

export function uploadsToView(s: UploadsSnapshot): UploadsView {
  return {
    ids: s.context.order,
    results: s.context.results,
    visible: s.context.order.length > 0 || s.context.results.length > 0,
  };
}

/** One upload's row: phase, percent (0–100, whole), error, and the server's result once done. */
export interface UploadView {
  id: string;
  fileName: string;
  phase: 'hashing' | 'uploading' | 'cancelling' | 'done' | 'failed' | 'cancelled' | 'starting';
  percent: number;
  /** §3 fileId: the tus upload id (last segment of its URL), once created. */
  fileId: string | null;
  error: string | null;
  result: unknown;
}

const percentOf = (part: number, whole: number) =>
  whole <= 0 ? 100 : Math.max(0, Math.min(100, Math.floor((part / whole) * 100)));

export function uploadToView(s: UploadSnapshot): UploadView {
  const c = s.context;
  const phase = s.value as UploadView['phase'];
  return {
    id: c.id,
    fileName: c.fileName,
    phase,
    percent: phase === 'hashing' ? percentOf(c.hashed, c.size) : percentOf(c.sent, c.size),
    fileId: c.uploadUrl ? (c.uploadUrl.split('/').pop() ?? null) : null,
    error: c.error,
    result: c.result,
  };
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function useUploadsRef(): AnyActorRef {
  return actorOf<AnyActorRef>(useSystem(), SYSTEM_IDS.uploads);
}

export function useUploadsView(): UploadsView {
  return useSelector(useUploadsRef(), (s: UploadsSnapshot) => uploadsToView(s), sameJson);
}

/** The upload actor of `id` (undefined once it ended). */
export function useUploadRef(id: string): UploadRef | undefined {
  return useSelector(useUploadsRef(), (s: UploadsSnapshot) => s.context.uploads[id] as UploadRef | undefined);
}

export function useUploadView(ref: UploadRef): UploadView {
  return useSelector(ref, uploadToView, sameJson);
}

/**
 * Starts uploading `file` for the server purpose `purpose` (src/server/uploads/purposes.ts) with its metadata,
 * e.g. `start(file, 'model', { modelId })`. Loads the uploads feature first when it is not running yet. The
 * upload shows in the §2 upload notification; its end is a §8 toast and the uploads actor's `upload.done` /
 * `upload.failed` emission.
 */
export function startUpload(
  system: ConsoleSystem,
  file: File,
  purpose: string,
  meta: Record<string, string> = {},
): void {
  const event = { type: 'uploads.add' as const, file, purpose, meta };
  const now = system.system.get(SYSTEM_IDS.uploads) as AnyActorRef | undefined;
  if (now) return now.send(event);
  system.send({ type: 'system.features.want', name: 'uploads' });
  let sent = false;
  const sub = system.subscribe((s) => {
    const ref = system.system.get(SYSTEM_IDS.uploads) as AnyActorRef | undefined;
    if (sent || !s.context.loaded.includes('uploads') || !ref) return;
    sent = true;
    queueMicrotask(() => sub.unsubscribe());
    ref.send(event);
  });
}

/** `startUpload` bound to the console's system, for screens. */
export function useStartUpload(): (file: File, purpose: string, meta?: Record<string, string>) => void {
  const system = useSystem();
  return useCallback(
    (file: File, purpose: string, meta: Record<string, string> = {}) =>
      startUpload(system, file, purpose, meta),
    [system],
  );
}
