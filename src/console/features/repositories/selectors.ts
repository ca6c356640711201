/**
 * Pure views of the repositories screens (§2 /repositories, /repositories/{alias}) and their hooks: the
 * repositories machine's snapshot as the list or tag-list view, the image push machine's as the push view,
 * and the formatting of sizes and digests.
 */
import { useSelector } from '@xstate/react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';
import type { imagePushMachine } from '../../../../machines/repositories/imagePush.machine';
import type { repositoriesMachine } from '../../../../machines/repositories/repositories.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { RepositorySummary, TagInfo } from '../../../protocol/repositories';
import { actorOf, useSystem } from '../../shell/SystemProvider';

export type RepositoriesSnapshot = SnapshotFrom<typeof repositoriesMachine>;
export type ImagePushSnapshot = SnapshotFrom<typeof imagePushMachine>;

/**
 * What a repositories screen shows. state: 'loading' (nothing for this view yet, or reloading), 'notConfigured'
 * (no registry), 'notFound' (the tag list's repository is missing), 'failed' (error), 'ready'.
 */
export interface RepositoriesView {
  state: 'loading' | 'notConfigured' | 'notFound' | 'failed' | 'ready';
  /** The view's repository alias (null: the list) — the screen re-asks when it differs from its route. */
  alias: string | null;
  registry: string | null;
  project: string | null;
  repositories: RepositorySummary[];
  tags: TagInfo[];
  error: string | null;
  busy: boolean;
}

export function repositoriesToView(s: RepositoriesSnapshot): RepositoriesView {
  const c = s.context;
  const state: RepositoriesView['state'] = s.matches('failed')
    ? c.errorCode === 'Not_found'
      ? 'notFound'
      : 'failed'
    : s.matches('ready')
      ? c.configured
        ? 'ready'
        : 'notConfigured'
      : 'loading';
  return {
    state,
    alias: c.alias,
    registry: c.registry,
    project: c.project,
    repositories: c.repositories,
    tags: c.tags,
    error: c.error,
    busy: s.hasTag('busy'),
  };
}

/** The push dialog's view: §4 state, the request, result and error. */
export interface ImagePushView {
  state: 'idle' | 'started' | 'successful' | 'error';
  ref: string | null;
  error: string | null;
  invalid: 'targetTag' | 'targetRepository' | null;
}

export function imagePushToView(s: ImagePushSnapshot): ImagePushView {
  const c = s.context;
  return {
    state: s.value as ImagePushView['state'],
    ref: c.result ? `${c.result.repository}:${c.result.tag}` : null,
    error: c.error,
    invalid: c.invalid,
  };
}

/** Bytes as a short text in binary units (B, KiB, MiB, GiB). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 2 : 1)} ${units[i]}`;
}

/** `sha256:` + the first 12 hex digits, as Harbor shows a digest. */
export const shortDigest = (digest: string) => digest.replace(/^(sha256:[0-9a-f]{12})[0-9a-f]*$/, '$1');

/** `os/architecture[/variant]` of each platform, joined. */
export const platformsText = (t: TagInfo) =>
  t.platforms.map((p) => [p.os, p.architecture, p.variant].filter(Boolean).join('/')).join(', ');

export function useRepositoriesRef(): AnyActorRef {
  return actorOf<AnyActorRef>(useSystem(), SYSTEM_IDS.repositories);
}
export function useImagePushRef(): AnyActorRef {
  return actorOf<AnyActorRef>(useSystem(), SYSTEM_IDS.imagePush);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function useRepositoriesView(): RepositoriesView {
  return useSelector(useRepositoriesRef(), (s: RepositoriesSnapshot) => repositoriesToView(s), same);
}
export function useImagePushView(): ImagePushView {
  return useSelector(useImagePushRef(), (s: ImagePushSnapshot) => imagePushToView(s), same);
}
