/**
 * A small client of the OCI Distribution API (spec §2 /repositories and /repositories/{alias}, §4 "Image
 * push: started, error, successful"), enough for Harbor and Distribution (docker-registry 2.8):
 *   GET  /v2/_catalog?n=…                 repositories (Link rel="next" pages followed)
 *   GET  /v2/<name>/tags/list?n=…         tags (pages followed)
 *   GET  /v2/<name>/manifests/<ref>       OCI image index / Docker manifest list, OCI image manifest / Docker
 *                                         image manifest v2 (digest from Docker-Content-Digest or the bytes)
 *   GET  /v2/<name>/blobs/<digest>        the config blob (created time, platform)
 *   HEAD /v2/<name>/blobs/<digest>, POST /v2/<name>/blobs/uploads/ (?mount=…&from=…) + PUT ?digest=…,
 *   PUT  /v2/<name>/manifests/<ref>       pushing (the demo images, tag copies)
 * Authentication (auth.ts): anonymous, Basic, or Bearer tokens from the registry's token service. Every call
 * has a 15 s time-out. Failures are RegistryError { status, code, message } (status 0: unreachable).
 */
import { createHash } from 'node:crypto';
import { basicAuthorization, parseChallenge, RegistryAuthError, TokenCache } from './auth';

export const MEDIA_TYPES = {
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  ociConfig: 'application/vnd.oci.image.config.v1+json',
  ociLayerGzip: 'application/vnd.oci.image.layer.v1.tar+gzip',
} as const;
const MANIFEST_ACCEPT = [
  MEDIA_TYPES.ociIndex,
  MEDIA_TYPES.dockerList,
  MEDIA_TYPES.ociManifest,
  MEDIA_TYPES.dockerManifest,
].join(', ');
const isIndexType = (t: string) => t === MEDIA_TYPES.ociIndex || t === MEDIA_TYPES.dockerList;

/** Where the registry is and who we are there. url: base URL without /v2 (e.g. https://harbor.example). */
export interface RegistryEndpoint {
  url: string;
  username: string | null;
  password: string | null;
}

/** A registry call failed. status: the HTTP status (0 when the registry could not be reached). */
export class RegistryError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'RegistryError';
  }
}

/** A descriptor of the OCI image spec. size: bytes. */
export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  platform?: { os?: string; architecture?: string; variant?: string };
}

/** A fetched manifest: its media type, digest (sha256:…), raw bytes and parsed JSON. */
export interface FetchedManifest {
  mediaType: string;
  digest: string;
  bytes: Buffer;
  json: { mediaType?: string; config?: Descriptor; layers?: Descriptor[]; manifests?: Descriptor[] };
}

/** One platform image of a tag. size: bytes of its manifest, config and (compressed) layers. */
export interface PlatformImage {
  os: string;
  architecture: string;
  variant: string | null;
  digest: string;
  size: number;
  created: string | null;
}

/**
 * What the tag list shows of one tag. size: bytes the tag stores (manifest, configs and compressed layers of
 * every platform, each blob counted once); created: ISO 8601 from the config blob (an index: its newest
 * platform), null when the config gives none; platforms: one per image (one for a plain image manifest).
 */
export interface TagDescription {
  tag: string;
  digest: string;
  media_type: string;
  size: number;
  created: string | null;
  platforms: PlatformImage[];
}

/** sha256 digest `sha256:<hex>` of bytes. */
export const digestOf = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** Most entries read from a paged list (catalog, tags). */
const LIST_MAX = 5000;
/** Most platform images of an index that are described. */
const INDEX_PLATFORMS_MAX = 16;
const TIMEOUT_MS = 15_000;

/** Reads `<…>; rel="next"` from a Link header, resolved against `base`. */
function nextLink(link: string | null, base: string): string | null {
  const m = link ? /<([^>]+)>\s*;\s*rel="?next"?/i.exec(link) : null;
  return m ? new URL(m[1]!, base).toString() : null;
}

/** Maps an HTTP answer to a RegistryError with the registry's own error text when it gives one. */
async function answerError(res: Response, what: string): Promise<RegistryError> {
  const body = (await res.json().catch(() => null)) as {
    errors?: Array<{ code?: string; message?: string }>;
  } | null;
  const first = body?.errors?.[0];
  const code =
    res.status === 404
      ? 'Not_found'
      : res.status === 401 || res.status === 403
        ? 'Registry_denied'
        : 'Registry_error';
  return new RegistryError(
    res.status,
    code,
    `${what}: the registry answered ${res.status}${first?.message ? ` (${first.code ?? ''} ${first.message})` : ''}.`,
  );
}

/** A client of one registry. */
export class RegistryClient {
  private readonly base: string;
  private readonly tokens: TokenCache;
  /** The authorization that worked last per scope key (repository name or 'registry'). */
  private readonly lastAuth = new Map<string, string>();

  constructor(
    readonly endpoint: RegistryEndpoint,
    private readonly fetchFn: typeof fetch = fetch,
  ) {
    this.base = endpoint.url.replace(/\/+$/, '');
    this.tokens = new TokenCache(endpoint, fetchFn);
  }

  /** The registry's host[:port], as a `docker pull` reference starts. */
  get host(): string {
    return new URL(this.base).host;
  }

  /**
   * One call with authentication: tries the authorization that worked last for `scopeKey`, answers a 401
   * challenge (Bearer or Basic) once. Network failures are RegistryError status 0.
   */
  async call(
    method: string,
    pathOrUrl: string,
    scopeKey: string,
    init: { headers?: Record<string, string>; body?: Uint8Array } = {},
  ): Promise<Response> {
    const url = /^https?:/.test(pathOrUrl) ? pathOrUrl : `${this.base}${pathOrUrl}`;
    const send = async (authorization: string | undefined) => {
      try {
        return await this.fetchFn(url, {
          method,
          headers: { ...init.headers, ...(authorization ? { authorization } : {}) },
          body: init.body as BodyInit | undefined,
          redirect: 'follow',
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (err) {
        throw new RegistryError(
          0,
          'Registry_unreachable',
          `The registry at ${this.host} cannot be reached (${(err as Error).message}).`,
        );
      }
    };
    let res = await send(this.lastAuth.get(scopeKey));
    if (res.status !== 401) return res;
    const challenge = parseChallenge(res.headers.get('www-authenticate'));
    let authorization: string | null = null;
    try {
      if (challenge?.scheme === 'bearer') authorization = `Bearer ${await this.tokens.bearer(challenge)}`;
      else if (challenge?.scheme === 'basic') authorization = basicAuthorization(this.endpoint);
    } catch (err) {
      if (err instanceof RegistryAuthError) throw new RegistryError(401, 'Registry_denied', err.message);
      throw new RegistryError(
        0,
        'Registry_unreachable',
        `The registry's token service cannot be reached (${(err as Error).message}).`,
      );
    }
    if (!authorization) return res;
    await res.body?.cancel().catch(() => undefined);
    res = await send(authorization);
    if (res.status !== 401) this.lastAuth.set(scopeKey, authorization);
    return res;
  }

  private async json<T>(path: string, scopeKey: string, what: string): Promise<{ body: T; res: Response }> {
    const res = await this.call('GET', path, scopeKey, { headers: { accept: 'application/json' } });
    if (!res.ok) throw await answerError(res, what);
    return { body: (await res.json()) as T, res };
  }

  /** Checks that the registry answers the API (GET /v2/). */
  async ping(): Promise<void> {
    const res = await this.call('GET', '/v2/', 'registry');
    await res.body?.cancel().catch(() => undefined);
    if (!res.ok) throw await answerError(res, 'The registry API');
  }

  private async paged(first: string, field: 'repositories' | 'tags', scopeKey: string, what: string) {
    const out: string[] = [];
    let next: string | null = first;
    while (next && out.length < LIST_MAX) {
      const { body, res }: { body: Record<string, unknown>; res: Response } = await this.json(
        next,
        scopeKey,
        what,
      );
      const list = body[field];
      if (Array.isArray(list)) out.push(...list.filter((x): x is string => typeof x === 'string'));
      next = nextLink(res.headers.get('link'), `${this.base}/`);
    }
    return out.slice(0, LIST_MAX);
  }

  /** Every repository name of the registry (GET /v2/_catalog, paged). */
  catalog(): Promise<string[]> {
    return this.paged('/v2/_catalog?n=1000', 'repositories', 'registry', 'The repository catalog');
  }

  /** The tags of repository `name` ([] when it has none). */
  async tags(name: string): Promise<string[]> {
    return this.paged(`/v2/${name}/tags/list?n=1000`, 'tags', name, `The tags of ${name}`);
  }

  /** A manifest by tag or digest, with its digest. RegistryError 404 Not_found when missing. */
  async manifest(name: string, reference: string): Promise<FetchedManifest> {
    const res = await this.call('GET', `/v2/${name}/manifests/${encodeURIComponent(reference)}`, name, {
      headers: { accept: MANIFEST_ACCEPT },
    });
    if (!res.ok) throw await answerError(res, `The manifest ${name}:${reference}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    let json: FetchedManifest['json'];
    try {
      json = JSON.parse(bytes.toString('utf8')) as FetchedManifest['json'];
    } catch {
      throw new RegistryError(502, 'Registry_error', `The manifest ${name}:${reference} is not JSON.`);
    }
    const mediaType = json.mediaType ?? (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    return { mediaType, digest: res.headers.get('docker-content-digest') ?? digestOf(bytes), bytes, json };
  }

  /** A blob parsed as JSON (the image config). */
  async blobJson<T>(name: string, digest: string): Promise<T> {
    return (await this.json<T>(`/v2/${name}/blobs/${digest}`, name, `The blob ${digest}`)).body;
  }

  /** Describes one platform image manifest: size (manifest + config + layers), platform and created. */
  private async describeImage(name: string, m: FetchedManifest, platform?: Descriptor['platform']) {
    const config = m.json.config;
    const layers = m.json.layers ?? [];
    const cfg = config
      ? await this.blobJson<{ created?: unknown; os?: unknown; architecture?: unknown; variant?: unknown }>(
          name,
          config.digest,
        ).catch(() => null)
      : null;
    const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
    const blobs = [config, ...layers].filter((d): d is Descriptor => !!d);
    const image: PlatformImage = {
      os: platform?.os ?? str(cfg?.os) ?? 'unknown',
      architecture: platform?.architecture ?? str(cfg?.architecture) ?? 'unknown',
      variant: platform?.variant ?? str(cfg?.variant),
      digest: m.digest,
      size: m.bytes.length + blobs.reduce((n, d) => n + (Number(d.size) || 0), 0),
      created:
        str(cfg?.created) && !Number.isNaN(Date.parse(String(cfg!.created)))
          ? new Date(String(cfg!.created)).toISOString()
          : null,
    };
    return { image, blobs, manifestSize: m.bytes.length };
  }

  /**
   * Size, digest, created and platforms of `name:tag` (an index or manifest list: each platform image
   * described, at most INDEX_PLATFORMS_MAX; shared blobs counted once in `size`).
   */
  async describeTag(name: string, tag: string): Promise<TagDescription> {
    const top = await this.manifest(name, tag);
    if (isIndexType(top.mediaType) || Array.isArray(top.json.manifests)) {
      const children = (top.json.manifests ?? [])
        .filter((d) => d.platform?.os !== 'unknown')
        .slice(0, INDEX_PLATFORMS_MAX);
      const described = await Promise.all(
        children.map(async (d) => this.describeImage(name, await this.manifest(name, d.digest), d.platform)),
      );
      const seen = new Map<string, number>();
      for (const { blobs } of described) for (const b of blobs) seen.set(b.digest, Number(b.size) || 0);
      const platforms = described.map((x) => x.image);
      const created =
        platforms
          .map((p) => p.created)
          .filter((c): c is string => !!c)
          .sort()
          .at(-1) ?? null;
      const manifestBytes = described.reduce((n, d) => n + d.manifestSize, 0);
      return {
        tag,
        digest: top.digest,
        media_type: top.mediaType,
        size: top.bytes.length + manifestBytes + [...seen.values()].reduce((a, b) => a + b, 0),
        created,
        platforms,
      };
    }
    const { image } = await this.describeImage(name, top);
    return {
      tag,
      digest: top.digest,
      media_type: top.mediaType,
      size: image.size,
      created: image.created,
      platforms: [image],
    };
  }

  /** True when the repository holds the blob. */
  async hasBlob(name: string, digest: string): Promise<boolean> {
    const res = await this.call('HEAD', `/v2/${name}/blobs/${digest}`, name);
    return res.ok;
  }

  /** Uploads a blob (monolithic: POST then PUT ?digest=) unless present; answers its digest. */
  async pushBlob(name: string, bytes: Uint8Array): Promise<string> {
    const digest = digestOf(bytes);
    if (await this.hasBlob(name, digest)) return digest;
    const start = await this.call('POST', `/v2/${name}/blobs/uploads/`, name);
    if (start.status !== 202) throw await answerError(start, `Starting an upload to ${name}`);
    const location = new URL(start.headers.get('location') ?? '', `${this.base}/`);
    location.searchParams.set('digest', digest);
    const put = await this.call('PUT', location.toString(), name, {
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) },
      body: bytes,
    });
    if (put.status !== 201) throw await answerError(put, `Uploading ${digest} to ${name}`);
    return digest;
  }

  /** Mounts a blob of repository `from` into `name` (cross-repository mount); false when not mounted. */
  async mountBlob(name: string, digest: string, from: string): Promise<boolean> {
    if (await this.hasBlob(name, digest)) return true;
    const res = await this.call(
      'POST',
      `/v2/${name}/blobs/uploads/?mount=${encodeURIComponent(digest)}&from=${encodeURIComponent(from)}`,
      name,
    );
    await res.body?.cancel().catch(() => undefined);
    return res.status === 201;
  }

  /** Puts a manifest under `reference` (a tag or its digest); answers the digest. */
  async putManifest(name: string, reference: string, mediaType: string, bytes: Uint8Array): Promise<string> {
    const res = await this.call('PUT', `/v2/${name}/manifests/${encodeURIComponent(reference)}`, name, {
      headers: { 'content-type': mediaType },
      body: bytes,
    });
    if (res.status !== 201) throw await answerError(res, `Pushing the manifest ${name}:${reference}`);
    return res.headers.get('docker-content-digest') ?? digestOf(bytes);
  }

  /**
   * Copies `from:fromTag` to `to:toTag` (§4 image push done by the server): the blobs are mounted (copied
   * through the server when a mount is refused), child manifests of an index pushed by digest, then the
   * manifest under the new tag. Answers the digest (the same as the source's).
   */
  async copyTag(from: string, fromTag: string, to: string, toTag: string): Promise<string> {
    const top = await this.manifest(from, fromTag);
    if (from !== to) {
      const images =
        isIndexType(top.mediaType) || Array.isArray(top.json.manifests)
          ? await Promise.all((top.json.manifests ?? []).map((d) => this.manifest(from, d.digest)))
          : [top];
      for (const m of images) {
        for (const d of [m.json.config, ...(m.json.layers ?? [])].filter((x): x is Descriptor => !!x)) {
          if (!(await this.mountBlob(to, d.digest, from))) {
            const res = await this.call('GET', `/v2/${from}/blobs/${d.digest}`, from);
            if (!res.ok) throw await answerError(res, `Reading ${d.digest}`);
            await this.pushBlob(to, Buffer.from(await res.arrayBuffer()));
          }
        }
        if (m !== top) await this.putManifest(to, m.digest, m.mediaType, m.bytes);
      }
    }
    return this.putManifest(to, toTag, top.mediaType, top.bytes);
  }
}
