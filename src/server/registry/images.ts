/**
 * Small, real OCI images built in memory and pushed through the Distribution API (the demo registry's
 * seed, `src/server/registry/local.ts`, and the tests): each platform image is one gzip layer holding one
 * text file, an OCI image config (os, architecture, created, rootfs diff_ids) and an OCI image manifest; a
 * multi-platform tag is an OCI image index over them. Built deterministically (fixed tar header times, gzip
 * without a timestamp), so pushing the same image again changes nothing.
 */
import { gzipSync } from 'node:zlib';
import { digestOf, MEDIA_TYPES, type RegistryClient } from './oci';

/** A tar archive holding one regular file (ustar, mode 0644, mtime 0). */
export function tarOneFile(name: string, content: string): Buffer {
  const data = Buffer.from(content, 'utf8');
  const header = Buffer.alloc(512, 0);
  const put = (text: string, offset: number, length: number) => header.write(text, offset, length, 'ascii');
  put(name.slice(0, 99), 0, 100);
  put('0000644\0', 100, 8);
  put('0000000\0', 108, 8);
  put('0000000\0', 116, 8);
  put(`${data.length.toString(8).padStart(11, '0')}\0`, 124, 12);
  put('00000000000\0', 136, 12);
  put('        ', 148, 8);
  put('0', 156, 1);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  let sum = 0;
  for (const b of header) sum += b;
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  const pad = Buffer.alloc((512 - (data.length % 512)) % 512, 0);
  return Buffer.concat([header, data, pad, Buffer.alloc(1024, 0)]);
}

/** One platform image to build. created: ISO 8601; file: the text its single layer holds. */
export interface ImageSpec {
  os?: string;
  architecture: string;
  variant?: string;
  created: string;
  file: string;
}

/** Pushes one platform image (layer, config, manifest by digest); answers its descriptor. */
async function pushImage(client: RegistryClient, repository: string, spec: ImageSpec) {
  const tar = tarOneFile('app/README.txt', spec.file);
  const layer = gzipSync(tar, { level: 9 });
  const config = Buffer.from(
    JSON.stringify({
      architecture: spec.architecture,
      os: spec.os ?? 'linux',
      ...(spec.variant ? { variant: spec.variant } : {}),
      created: spec.created,
      config: { Cmd: ['cat', '/app/README.txt'] },
      rootfs: { type: 'layers', diff_ids: [digestOf(tar)] },
    }),
  );
  await client.pushBlob(repository, layer);
  await client.pushBlob(repository, config);
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: MEDIA_TYPES.ociManifest,
      config: { mediaType: MEDIA_TYPES.ociConfig, digest: digestOf(config), size: config.length },
      layers: [{ mediaType: MEDIA_TYPES.ociLayerGzip, digest: digestOf(layer), size: layer.length }],
    }),
  );
  const digest = await client.putManifest(repository, digestOf(manifest), MEDIA_TYPES.ociManifest, manifest);
  return {
    manifest,
    descriptor: {
      mediaType: MEDIA_TYPES.ociManifest,
      digest,
      size: manifest.length,
      platform: {
        os: spec.os ?? 'linux',
        architecture: spec.architecture,
        ...(spec.variant ? { variant: spec.variant } : {}),
      },
    },
  };
}

/**
 * Pushes `repository:tag`: one image manifest for one spec, an OCI image index for several. Answers the
 * tag's digest.
 */
export async function pushTestImage(
  client: RegistryClient,
  repository: string,
  tag: string,
  specs: readonly ImageSpec[],
): Promise<string> {
  if (specs.length === 0) throw new Error('pushTestImage: no image');
  const images = [];
  for (const spec of specs) images.push(await pushImage(client, repository, spec));
  if (images.length === 1)
    return client.putManifest(repository, tag, MEDIA_TYPES.ociManifest, images[0]!.manifest);
  const index = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: MEDIA_TYPES.ociIndex,
      manifests: images.map((i) => i.descriptor),
    }),
  );
  return client.putManifest(repository, tag, MEDIA_TYPES.ociIndex, index);
}
