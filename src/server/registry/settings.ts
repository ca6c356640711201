/**
 * The image registry the server reads (spec §2 /repositories; §9 "Image repository project name carries the
 * suffix _prod"), from the environment, read at each call (so `src/stack.ts` can point a running server at the
 * registry it started):
 *   REGISTRY_URL       base URL of a Harbor or Distribution registry (http or https, no /v2); unset = none
 *   REGISTRY_USERNAME  user for Basic auth or the bearer token service (Harbor: a robot account); optional
 *   REGISTRY_PASSWORD  its password; optional
 *   REGISTRY_PROJECT   the project (Harbor) or the first path segment of the repositories (Distribution);
 *                      `_prod` is appended unless it already ends with it; default `edge` → `edge_prod`
 * Credentials never leave the server.
 */
import { RegistryClient, type RegistryEndpoint } from './oci';

/** §9: the project name's suffix. */
export const PROJECT_SUFFIX = '_prod';
/** The project when REGISTRY_PROJECT is unset (→ edge_prod). */
export const DEFAULT_PROJECT = 'edge';

/** A configured registry: where, who, and the project (suffix applied). */
export interface RegistrySettings extends RegistryEndpoint {
  project: string;
}

/** `name` with the §9 suffix `_prod` (appended unless present). */
export const prodProject = (name: string) =>
  name.endsWith(PROJECT_SUFFIX) ? name : `${name}${PROJECT_SUFFIX}`;

/**
 * The registry settings from `env`, or null when REGISTRY_URL is unset or not an http(s) URL (the page then
 * says no registry is configured).
 */
export function registrySettings(env: NodeJS.ProcessEnv = process.env): RegistrySettings | null {
  const raw = env.REGISTRY_URL?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const project = (env.REGISTRY_PROJECT?.trim() || DEFAULT_PROJECT).replace(/^\/+|\/+$/g, '');
  return {
    url: url.toString().replace(/\/+$/, ''),
    username: env.REGISTRY_USERNAME || null,
    password: env.REGISTRY_PASSWORD || null,
    project: prodProject(project),
  };
}

let cached: { key: string; client: RegistryClient } | null = null;

/** The client of the configured registry (kept while the settings stay the same), or null. */
export function registryClient(
  env: NodeJS.ProcessEnv = process.env,
): { client: RegistryClient; settings: RegistrySettings } | null {
  const settings = registrySettings(env);
  if (!settings) return null;
  const key = JSON.stringify(settings);
  if (cached?.key !== key) cached = { key, client: new RegistryClient(settings) };
  return { client: cached.client, settings };
}
