/**
 * The OCI client (src/server/registry) against a real Distribution 2.8 registry (tests/registry.ts):
 * anonymous and behind bearer-token authentication (WWW-Authenticate: Bearer realm=…), real small OCI images
 * pushed through the API (blobs, config, manifest, index), their tags described (size, digest, created,
 * platforms), a tag copied into another repository (cross-repository mounts), and the challenge parser.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChallenge } from '../../../src/server/registry/auth';
import { pushTestImage } from '../../../src/server/registry/images';
import { digestOf, MEDIA_TYPES, RegistryClient, RegistryError } from '../../../src/server/registry/oci';
import { prodProject, registrySettings } from '../../../src/server/registry/settings';
import { startTestRegistry, type TestRegistry } from '../../registry';

const AMD64 = { architecture: 'amd64', created: '2026-09-01T10:00:00Z', file: 'amd64 build\n' };
const ARM64 = {
  architecture: 'arm64',
  variant: 'v8',
  created: '2026-09-02T11:00:00Z',
  file: 'arm64 build\n',
};

describe('challenge parsing and settings', () => {
  it('reads Bearer and Basic challenges with quoted commas', () => {
    expect(
      parseChallenge(
        'Bearer realm="https://h/service/token",service="harbor-registry",scope="repository:a/b:pull,push"',
      ),
    ).toEqual({
      scheme: 'bearer',
      params: {
        realm: 'https://h/service/token',
        service: 'harbor-registry',
        scope: 'repository:a/b:pull,push',
      },
    });
    expect(parseChallenge('Basic realm="Registry Realm"')).toEqual({
      scheme: 'basic',
      params: { realm: 'Registry Realm' },
    });
    expect(parseChallenge('')).toBeNull();
  });

  it('applies the §9 _prod suffix once and refuses a non-http URL', () => {
    expect(prodProject('edge')).toBe('edge_prod');
    expect(prodProject('edge_prod')).toBe('edge_prod');
    expect(registrySettings({ REGISTRY_URL: 'http://r:5000/', REGISTRY_PROJECT: 'vision' })).toEqual({
      url: 'http://r:5000',
      username: null,
      password: null,
      project: 'vision_prod',
    });
    expect(registrySettings({ REGISTRY_URL: 'ftp://r' })).toBeNull();
    expect(registrySettings({})).toBeNull();
  });
});

describe('anonymous registry', () => {
  let reg: TestRegistry;
  let client: RegistryClient;
  beforeAll(async () => {
    reg = await startTestRegistry();
    client = new RegistryClient({ url: reg.url, username: null, password: null });
  }, 30_000);
  afterAll(() => reg?.dispose());

  it('describes a single-platform image and a multi-platform index', async () => {
    const single = await pushTestImage(client, 'p_prod/app', '1.0', [AMD64]);
    const multi = await pushTestImage(client, 'p_prod/app', '2.0', [AMD64, ARM64]);
    expect(await client.catalog()).toEqual(['p_prod/app']);
    expect((await client.tags('p_prod/app')).sort()).toEqual(['1.0', '2.0']);

    const one = await client.describeTag('p_prod/app', '1.0');
    const m = await client.manifest('p_prod/app', '1.0');
    expect(one.digest).toBe(single);
    expect(digestOf(m.bytes)).toBe(single);
    expect(one.media_type).toBe(MEDIA_TYPES.ociManifest);
    const blobBytes = [m.json.config!, ...m.json.layers!].reduce((n, d) => n + d.size, 0);
    expect(one.size).toBe(m.bytes.length + blobBytes);
    expect(one.created).toBe('2026-09-01T10:00:00.000Z');
    expect(one.platforms).toMatchObject([{ os: 'linux', architecture: 'amd64', variant: null }]);

    const idx = await client.describeTag('p_prod/app', '2.0');
    expect(idx.digest).toBe(multi);
    expect(idx.media_type).toBe(MEDIA_TYPES.ociIndex);
    expect(idx.created).toBe('2026-09-02T11:00:00.000Z');
    expect(idx.platforms.map((p) => `${p.architecture}/${p.variant ?? ''}`)).toEqual(['amd64/', 'arm64/v8']);
    // The amd64 image is the same as 1.0's: counted once, plus the index bytes.
    expect(idx.platforms[0]!.digest).toBe(single);
    expect(idx.size).toBeGreaterThan(idx.platforms[0]!.size + idx.platforms[1]!.size);
  });

  it('copies a tag into another repository (blobs mounted) and reports a missing tag as 404', async () => {
    await pushTestImage(client, 'p_prod/app', '3.0', [AMD64, ARM64]);
    const digest = await client.copyTag('p_prod/app', '3.0', 'p_prod/promoted', 'stable');
    expect((await client.describeTag('p_prod/promoted', 'stable')).digest).toBe(digest);
    await expect(client.describeTag('p_prod/app', 'nope')).rejects.toMatchObject({ status: 404 });
  });

  it('reports an unreachable registry as status 0', async () => {
    const gone = new RegistryClient({ url: 'http://127.0.0.1:1', username: null, password: null });
    const err = await gone.catalog().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryError);
    expect((err as RegistryError).status).toBe(0);
  });
});

describe('registry behind bearer-token authentication', () => {
  let reg: TestRegistry;
  beforeAll(async () => {
    reg = await startTestRegistry({ withTokenAuth: { username: 'robot$edge', password: 's3cret' } });
  }, 30_000);
  afterAll(() => reg?.dispose());

  it('answers the challenge with a token from the realm, and refuses wrong credentials', async () => {
    const anonymous = await fetch(`${reg.url}/v2/_catalog`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="http:\/\/127\.0\.0\.1:\d+\/token"/,
    );

    const client = new RegistryClient({ url: reg.url, username: 'robot$edge', password: 's3cret' });
    await pushTestImage(client, 'edge_prod/secure', 'v1', [AMD64]);
    expect(await client.catalog()).toEqual(['edge_prod/secure']);
    expect((await client.describeTag('edge_prod/secure', 'v1')).created).toBe('2026-09-01T10:00:00.000Z');
    expect(reg.tokenRequests).toContain('registry:catalog:*');
    expect(reg.tokenRequests.some((s) => s.includes('repository:edge_prod/secure:'))).toBe(true);

    const wrong = new RegistryClient({ url: reg.url, username: 'robot$edge', password: 'bad' });
    await expect(wrong.catalog()).rejects.toMatchObject({ status: 401, code: 'Registry_denied' });
  });
});
