/**
 * The repositories feature's contract (spec §2 /repositories and /repositories/{alias} "tag list"; §4 "Image
 * push: started, error, successful"; §9 "Image repository project name carries the suffix _prod"). Anchor:
 * Harbor's repositories and tags.
 *
 * The server reads a configured OCI registry (Harbor or Distribution; REGISTRY_URL, REGISTRY_USERNAME,
 * REGISTRY_PASSWORD, REGISTRY_PROJECT) through the OCI Distribution API; the browser never talks to it and
 * never sees its credentials. Only the repositories of the project (`<project>_prod/…`) are shown; a
 * repository's `alias` is its name inside the project (`people-detector` for `edge_prod/people-detector`).
 *
 * Image push (§4) is done by the server: a tag of a repository of the project is pushed under a new tag,
 * into the same or another repository of the project (the registry copies by manifest and cross-repository
 * blob mounts, as `docker tag` + `docker push` would), so a tested image can be promoted (`1.1.0` → `stable`).
 * Errors: 404 Not_found (no such repository or tag), 409 Tag_exists (the target tag exists),
 * 409 Registry_not_configured, 502 Registry_unavailable (the registry cannot be reached or refuses us).
 */
import { z } from 'zod';
import { defineRoutes } from './route';

/** OCI distribution-spec repository name component grammar, lower case; `/` separates path components. */
export const REPOSITORY_ALIAS_PATTERN =
  /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/;
/** OCI tag grammar. */
export const TAG_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

export const RepositoryAlias = z
  .string()
  .max(200)
  .regex(REPOSITORY_ALIAS_PATTERN, 'a repository name: lower-case letters, digits, . _ - and /')
  .meta({ examples: ['people-detector', 'apps/plate-reader'] });
export const ImageTag = z
  .string()
  .regex(TAG_PATTERN, 'a tag: letters, digits, _ . - (up to 128, not starting with . or -)')
  .meta({ examples: ['1.0.0', 'latest', 'stable'] });

/** Error codes of the feature's routes. */
export const REPOSITORY_ERROR_CODES = {
  notConfigured: 'Registry_not_configured',
  unavailable: 'Registry_unavailable',
  tagExists: 'Tag_exists',
} as const;

/** Where the registry is: host[:port] as pull references start, and the project (with `_prod`). */
export const RegistryInfo = z.object({
  /** false: no REGISTRY_URL is set; the other fields are then null. */
  configured: z.boolean(),
  registry: z.string().nullable(),
  project: z.string().nullable(),
});
export type RegistryInfo = z.infer<typeof RegistryInfo>;

/** A repository of the project. name: full (`edge_prod/people-detector`); tag_count: its tags. */
export const RepositorySummary = z.object({
  name: z.string(),
  alias: z.string(),
  tag_count: z.number().int().min(0),
});
export type RepositorySummary = z.infer<typeof RepositorySummary>;

/** One platform image of a tag. size: bytes (manifest + config + compressed layers); created: ISO 8601. */
export const PlatformImage = z.object({
  os: z.string(),
  architecture: z.string(),
  variant: z.string().nullable(),
  digest: z.string(),
  size: z.number().int().min(0),
  created: z.string().nullable(),
});
export type PlatformImage = z.infer<typeof PlatformImage>;

/**
 * A tag as the tag list shows it. digest: `sha256:…` of its manifest (or index); media_type: the manifest's
 * (OCI image index, Docker manifest list, OCI image manifest, Docker image manifest v2); size: bytes stored
 * (every platform, shared blobs once); created: ISO 8601 from the config blob (an index: its newest image),
 * null when unknown; pull_command: `docker pull <registry>/<project>/<alias>:<tag>`. error: set instead of
 * the details when this tag's manifest could not be read (digest '' and size 0 then).
 */
export const TagInfo = z.object({
  tag: z.string(),
  digest: z.string(),
  media_type: z.string(),
  size: z.number().int().min(0),
  created: z.string().nullable(),
  platforms: z.array(PlatformImage),
  pull_command: z.string(),
  error: z.string().nullable(),
});
export type TagInfo = z.infer<typeof TagInfo>;

/** Most repositories listed; most tags described per repository. */
export const REPOSITORIES_MAX = 200;
export const TAGS_MAX = 100;

/** Body of a push: `tag` of the repository pushed as `target_tag` of `target_repository` (default: the same). */
export const PushBody = z
  .object({
    tag: ImageTag,
    target_repository: RepositoryAlias.optional(),
    target_tag: ImageTag,
  })
  .strict();
export type PushBody = z.infer<typeof PushBody>;

export const repositoryRoutes = defineRoutes({
  'repositories.list': {
    method: 'GET',
    path: '/api/repositories',
    auth: 'user',
    summary:
      'The repositories of the registry project (<project>_prod) with their tag counts; configured false when no registry is set. 502 when the registry cannot be read.',
    answer: RegistryInfo.extend({ repositories: z.array(RepositorySummary) }),
  },
  'repositories.tags': {
    method: 'GET',
    path: '/api/repositories/:alias/tags',
    auth: 'user',
    summary:
      "A repository's tags (newest first, at most 100) with size, digest, created, platforms and the pull command. 404 when the repository does not exist.",
    params: z.object({ alias: RepositoryAlias }),
    answer: RegistryInfo.extend({ repository: RepositorySummary.nullable(), tags: z.array(TagInfo) }),
    errors: [404],
  },
  'repositories.push': {
    method: 'POST',
    path: '/api/repositories/:alias/push',
    auth: 'admin',
    summary:
      '§4 image push: pushes a tag under a new tag (same or another repository of the project). 404 no such tag, 409 the target tag exists or no registry is configured.',
    params: z.object({ alias: RepositoryAlias }),
    body: PushBody,
    answer: z.object({
      repository: z.string(),
      tag: z.string(),
      digest: z.string(),
      pull_command: z.string(),
    }),
    errors: [404, 409],
  },
});
