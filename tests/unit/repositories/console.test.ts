/**
 * The repositories screens' pure views (src/console/features/repositories/selectors.ts): machine snapshots
 * to the list / tag-list view (not configured, not found, failed, ready), the push view, and the size,
 * digest and platform texts; the six languages carry every English key.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { imagePushMachine } from '../../../machines/repositories/imagePush.machine';
import {
  repositoriesMachine,
  type RepositoriesLoaded,
} from '../../../machines/repositories/repositories.machine';
import { ch } from '../../../src/console/features/repositories/languages/ch';
import { de } from '../../../src/console/features/repositories/languages/de';
import { en } from '../../../src/console/features/repositories/languages/en';
import { es } from '../../../src/console/features/repositories/languages/es';
import { fr } from '../../../src/console/features/repositories/languages/fr';
import { jp } from '../../../src/console/features/repositories/languages/jp';
import {
  formatBytes,
  imagePushToView,
  platformsText,
  repositoriesToView,
  shortDigest,
} from '../../../src/console/features/repositories/selectors';
import type { TagInfo } from '../../../src/protocol/repositories';

const tick = () => new Promise((r) => setImmediate(r));
const loaded: RepositoriesLoaded = {
  configured: true,
  registry: 'r:5000',
  project: 'edge_prod',
  repositories: [{ name: 'edge_prod/app', alias: 'app', tag_count: 1 }],
  repository: null,
  tags: [],
};

async function viewAfter(load: () => Promise<RepositoriesLoaded>) {
  const actor = createActor(
    repositoriesMachine.provide({ actors: { loadRepositories: fromPromise(load) } }),
  ).start();
  actor.send({ type: 'repositories.show', alias: null });
  const during = repositoriesToView(actor.getSnapshot());
  await tick();
  return { during, after: repositoriesToView(actor.getSnapshot()) };
}

describe('repositories views', () => {
  it('maps loading, ready, not configured, not found and failed', async () => {
    const ok = await viewAfter(async () => loaded);
    expect(ok.during).toMatchObject({ state: 'loading', busy: true });
    expect(ok.after).toMatchObject({ state: 'ready', registry: 'r:5000', busy: false, alias: null });
    expect((await viewAfter(async () => ({ ...loaded, configured: false }))).after.state).toBe(
      'notConfigured',
    );
    const missing = await viewAfter(async () => {
      throw Object.assign(new Error('gone'), { code: 'Not_found' });
    });
    expect(missing.after.state).toBe('notFound');
    const down = await viewAfter(async () => {
      throw Object.assign(new Error('The registry cannot be reached.'), { code: 'Registry_unavailable' });
    });
    expect(down.after).toMatchObject({ state: 'failed', error: 'The registry cannot be reached.' });
  });

  it('maps the push machine to its §4 state and reference', async () => {
    const actor = createActor(
      imagePushMachine.provide({
        actors: {
          pushImage: fromPromise(async () => ({
            repository: 'edge_prod/app',
            tag: 'stable',
            digest: 'sha256:1',
            pull_command: '',
          })),
        },
      }),
    ).start();
    expect(imagePushToView(actor.getSnapshot())).toEqual({
      state: 'idle',
      ref: null,
      error: null,
      invalid: null,
    });
    actor.send({ type: 'push.start', alias: 'app', tag: '1', targetRepository: null, targetTag: 'stable' });
    expect(imagePushToView(actor.getSnapshot()).state).toBe('started');
    await tick();
    expect(imagePushToView(actor.getSnapshot())).toMatchObject({
      state: 'successful',
      ref: 'edge_prod/app:stable',
    });
  });

  it('formats sizes, digests and platforms', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2.00 KiB');
    expect(formatBytes(350 * 1024 * 1024)).toBe('350.0 MiB');
    expect(shortDigest(`sha256:${'a'.repeat(64)}`)).toBe('sha256:aaaaaaaaaaaa');
    const tag = {
      platforms: [
        { os: 'linux', architecture: 'amd64', variant: null },
        { os: 'linux', architecture: 'arm64', variant: 'v8' },
      ],
    } as TagInfo;
    expect(platformsText(tag)).toBe('linux/amd64, linux/arm64/v8');
  });

  it('has every English key in the five other languages', () => {
    const keys = (o: object, p = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        typeof v === 'object' ? keys(v as object, `${p}${k}.`) : [`${p}${k}`],
      );
    for (const lang of [ch, es, jp, de, fr]) expect(keys(lang).sort()).toEqual(keys(en).sort());
  });
});
