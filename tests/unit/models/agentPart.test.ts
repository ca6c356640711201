/**
 * The device's models part against a fake server (fetch replaced): a file whose SHA-256 differs is refused
 * (checksumMismatch, nothing installed, the failure reported to the server), a server that ignores Range
 * restarts the download from byte 0, a broken stream is resumed with Range, and an unknown deployment is
 * refused.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Backend } from '../../../src/agent/backends/types';
import { silentLogger } from '../../../src/agent/log';
import { createDeviceModels } from '../../../src/agent/models';

const DEPLOYMENT = '2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11';
const FILE = Buffer.from('0123456789'.repeat(1000));
const SHA = createHash('sha256').update(FILE).digest('hex');

let stateDir = '';
beforeEach(() => {
  stateDir = mkdtempSync(path.join(os.tmpdir(), 'models-part-'));
});
afterEach(() => rmSync(stateDir, { recursive: true, force: true }));

interface FakeServer {
  sha256?: string;
  /** Answer 200 with the whole file even to a Range request. */
  ignoreRange?: boolean;
  /** Break the first file response after this many bytes. */
  breakAfter?: number;
  unknown?: boolean;
}

function fakeFetch(
  server: FakeServer,
  seen: { ranges: string[]; reports: { state: string }[] },
): typeof fetch {
  let broken = false;
  return async (input, init) => {
    const url = String(input);
    const headers = new Headers(init?.headers);
    if (url.endsWith('/status')) {
      seen.reports.push(JSON.parse(String(init?.body)) as { state: string });
      return new Response('{"ok":true}');
    }
    if (url.includes('/api/device/model-deployments/')) {
      if (server.unknown) return new Response('{}', { status: 404 });
      return Response.json({
        deployment_id: DEPLOYMENT,
        model_id: 'M0123456789A',
        model_name: 'people',
        task: 'object-detection',
        format: 'onnx',
        classes: ['person'],
        version_id: 'v1',
        version: 1,
        file_name: '../../evil name.onnx',
        size: FILE.length,
        sha256: server.sha256 ?? SHA,
        file_path: '/api/models/M0123456789A/versions/1/file',
      });
    }
    const range = headers.get('range');
    if (range) seen.ranges.push(range);
    const start = range && !server.ignoreRange ? Number(/bytes=(\d+)-/.exec(range)![1]) : 0;
    const body = FILE.subarray(start);
    if (server.breakAfter !== undefined && !broken) {
      broken = true;
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new Uint8Array(body.subarray(0, server.breakAfter)));
          setTimeout(() => c.error(new Error('connection reset')), 50); // after the bytes reached the disk
        },
      });
      return new Response(stream, { status: 200 });
    }
    return new Response(new Uint8Array(body), { status: range && !server.ignoreRange ? 206 : 200 });
  };
}

function part(server: FakeServer, seen = { ranges: [] as string[], reports: [] as { state: string }[] }) {
  return {
    seen,
    models: createDeviceModels(
      {
        mode: 'host',
        backend: { kind: 'x86' } as Backend,
        deviceId: 'dev-1',
        label: 'Box',
        stateDir,
        log: silentLogger,
        broadcast: () => undefined,
        server: { url: 'http://server.test', token: 't' },
      },
      { fetch: fakeFetch(server, seen) },
    ),
  };
}

describe('device models part', () => {
  it('refuses a file whose SHA-256 differs, installs nothing and reports the failure', async () => {
    const { models, seen } = part({ sha256: 'f'.repeat(64) });
    await expect(models.deploy(DEPLOYMENT)).rejects.toMatchObject({ code: 'checksumMismatch' });
    expect(await models.installed()).toEqual([]);
    expect(seen.reports.at(-1)).toMatchObject({ state: 'failed', error: { code: 'checksumMismatch' } });
    expect(models.downloads()[0]).toMatchObject({ state: 'failed' });
  });

  it('resumes a broken download with Range and installs it under a safe file name', async () => {
    const { models, seen } = part({ breakAfter: 4000 });
    const installed = await models.deploy(DEPLOYMENT);
    expect(seen.ranges).toEqual(['bytes=4000-']);
    expect(installed).toMatchObject({ sha256: SHA, size: FILE.length, file_name: 'evil_name.onnx' });
    expect((await models.installed()).map((m) => m.file_name)).toEqual(['evil_name.onnx']);
  });

  it('starts over when the server ignores Range', async () => {
    const { models, seen } = part({ breakAfter: 3000, ignoreRange: true });
    const installed = await models.deploy(DEPLOYMENT);
    expect(seen.ranges).toEqual(['bytes=3000-']);
    expect(installed.sha256).toBe(SHA);
  });

  it('refuses a deployment the server does not know for this device', async () => {
    const { models } = part({ unknown: true });
    await expect(models.deploy(DEPLOYMENT)).rejects.toMatchObject({ code: 'other' });
  });
});
