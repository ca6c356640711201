/**
 * Handlers of the repositories feature (src/protocol/repositories.ts; spec §2 /repositories,
 * /repositories/{alias}; §4 image push; §9 project suffix _prod):
 *   GET  /api/repositories               → registry info + the project's repositories with tag counts
 *   GET  /api/repositories/:alias/tags   → registry info + the repository + its tags described (≤ TAGS_MAX)
 *   POST /api/repositories/:alias/push   (admin) → copies tag → target tag through the registry
 * The registry is read through src/server/registry (OCI Distribution API, bearer/basic auth); its settings
 * come from the environment at each call (settings.ts). Registry failures answer 502 Registry_unavailable
 * with the registry's reason; a missing repository or tag 404.
 */
import {
  REPOSITORIES_MAX,
  REPOSITORY_ERROR_CODES,
  TAGS_MAX,
  type repositoryRoutes,
  type TagInfo,
} from '../../protocol/repositories';
import { API_ERROR_CODES } from '../../protocol';
import { HttpError } from '../errors';
import { RegistryError, type RegistryClient } from '../registry/oci';
import { registryClient, type RegistrySettings } from '../registry/settings';
import type { HandlersOf } from './register';

/** How many registry calls run at once for one request. */
const CONCURRENCY = 6;

/** Maps `fn` over `items`, at most `limit` at a time, keeping the order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

/** A registry failure as an HTTP answer: 404 stays 404, anything else is 502 Registry_unavailable. */
function asHttp(err: unknown): unknown {
  if (!(err instanceof RegistryError)) return err;
  if (err.status === 404) return new HttpError(404, API_ERROR_CODES.notFound, err.message);
  return new HttpError(502, REPOSITORY_ERROR_CODES.unavailable, err.message);
}

const info = (client: RegistryClient, settings: RegistrySettings) => ({
  configured: true,
  registry: client.host,
  project: settings.project,
});
const NOT_CONFIGURED = { configured: false, registry: null, project: null } as const;

/** `docker pull <host>/<repository>:<tag>`. */
export const pullCommand = (host: string, repository: string, tag: string) =>
  `docker pull ${host}/${repository}:${tag}`;

/** Newest first (created), undated after dated ones, then by tag descending. */
function byNewest(a: TagInfo, b: TagInfo): number {
  if (a.created !== b.created) {
    if (!a.created) return 1;
    if (!b.created) return -1;
    return a.created < b.created ? 1 : -1;
  }
  return b.tag.localeCompare(a.tag, 'en', { numeric: true });
}

/** The project's repositories (full names) from the catalog. */
async function projectRepositories(client: RegistryClient, project: string): Promise<string[]> {
  const prefix = `${project}/`;
  return (await client.catalog())
    .filter((n) => n.startsWith(prefix))
    .sort()
    .slice(0, REPOSITORIES_MAX);
}

export const repositoryHandlers: HandlersOf<typeof repositoryRoutes> = () => ({
  'repositories.list': async () => {
    const reg = registryClient();
    if (!reg) return { ...NOT_CONFIGURED, repositories: [] };
    const { client, settings } = reg;
    try {
      const names = await projectRepositories(client, settings.project);
      const repositories = await mapLimit(names, CONCURRENCY, async (name) => ({
        name,
        alias: name.slice(settings.project.length + 1),
        tag_count: (
          await client.tags(name).catch((e: unknown): string[] => {
            if (e instanceof RegistryError && e.status === 404) return [];
            throw e;
          })
        ).length,
      }));
      return { ...info(client, settings), repositories };
    } catch (err) {
      throw asHttp(err);
    }
  },

  'repositories.tags': async ({ params }) => {
    const reg = registryClient();
    if (!reg) return { ...NOT_CONFIGURED, repository: null, tags: [] };
    const { client, settings } = reg;
    const name = `${settings.project}/${params.alias}`;
    try {
      const tags = (await client.tags(name)).sort().reverse().slice(0, TAGS_MAX);
      const described = await mapLimit(tags, CONCURRENCY, async (tag): Promise<TagInfo> => {
        const pull_command = pullCommand(client.host, name, tag);
        try {
          return { ...(await client.describeTag(name, tag)), pull_command, error: null };
        } catch (err) {
          if (err instanceof RegistryError && err.status !== 0) {
            const base = { tag, digest: '', media_type: '', size: 0, created: null, platforms: [] };
            return { ...base, pull_command, error: err.message };
          }
          throw err;
        }
      });
      return {
        ...info(client, settings),
        repository: { name, alias: params.alias, tag_count: tags.length },
        tags: described.sort(byNewest),
      };
    } catch (err) {
      throw asHttp(err);
    }
  },

  'repositories.push': async ({ params, body }) => {
    const reg = registryClient();
    if (!reg)
      throw new HttpError(
        409,
        REPOSITORY_ERROR_CODES.notConfigured,
        'No image registry is configured (REGISTRY_URL).',
      );
    const { client, settings } = reg;
    const from = `${settings.project}/${params.alias}`;
    const to = `${settings.project}/${body.target_repository ?? params.alias}`;
    try {
      const existing = await client.tags(to).catch((e: unknown): string[] => {
        if (e instanceof RegistryError && e.status === 404) return [];
        throw e;
      });
      if (existing.includes(body.target_tag))
        throw new HttpError(
          409,
          REPOSITORY_ERROR_CODES.tagExists,
          `${to}:${body.target_tag} already exists.`,
        );
      const digest = await client.copyTag(from, body.tag, to, body.target_tag);
      return {
        repository: to,
        tag: body.target_tag,
        digest,
        pull_command: pullCommand(client.host, to, body.target_tag),
      };
    } catch (err) {
      throw asHttp(err);
    }
  },
});
