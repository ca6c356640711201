/**
 * The storage commands through the dispatcher on a sim device (Jetson and x86): totals, a scan with progress,
 * busy and cancel, the three image kinds, product data and its delete; hostile payloads answer coded errors.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { handlers } from '../../../src/agent/commands';
import type { CommandContext } from '../../../src/agent/commands';
import { createSimEngine } from '../../../src/agent/containers/sim';
import type { ContainerEngine } from '../../../src/agent/containers/engine';
import { ContainerEngineError } from '../../../src/agent/containers/engine';
import { dispatchRequest } from '../../../src/agent/link/dispatcher';
import { silentLogger } from '../../../src/agent/log';
import type { AgentPartDeps } from '../../../src/agent/parts';
import { createDeviceStorage, imageKind, type DeviceStorage } from '../../../src/agent/storage';
import { SIM_PRODUCT_DATA_ROOT } from '../../../src/agent/storage/sim';
import type { ProgressMessage, ReplyMessage } from '../../../src/protocol';
import {
  DirectoryUsage,
  ImageList,
  ProductData,
  ScanProgress,
  TotalStorageInfo,
} from '../../../src/protocol/storage';

interface Harness {
  ctx: CommandContext;
  storage: DeviceStorage;
  engine: ContainerEngine;
}
const open: Harness[] = [];

function harness(kind: 'jetson' | 'x86' = 'jetson', engine?: ContainerEngine): Harness {
  const e =
    engine ?? createSimEngine({ deviceId: 'dev-1', deviceName: 'Sim', kind, hasGpu: true, timeScale: 0.05 });
  const deps = {
    mode: 'sim',
    backend: { kind },
    deviceId: 'dev-1',
    label: 'Sim',
    stateDir: '/nonexistent',
    log: silentLogger,
    broadcast: () => undefined,
  } as unknown as AgentPartDeps;
  const storage = createDeviceStorage(deps, { simStepMs: 2, progressEveryMs: 0 });
  // Only the parts the storage handlers read.
  const ctx = {
    deviceId: 'dev-1',
    linkId: 'link-1',
    containers: e,
    storage,
  } as Partial<CommandContext> as CommandContext;
  const h = { ctx, storage, engine: e };
  open.push(h);
  return h;
}
afterEach(async () => {
  for (const h of open.splice(0)) {
    await h.storage.close();
    await h.engine.close();
  }
});

let n = 0;
async function call(
  h: Harness,
  process: string,
  payload: unknown,
  onProgress?: (m: ProgressMessage) => void,
) {
  const progress: ProgressMessage[] = [];
  const reply = await dispatchRequest(
    { type: 'request', process, requestId: `r${++n}`, payload },
    handlers,
    h.ctx,
    silentLogger,
    (m) => {
      progress.push(m);
      onProgress?.(m);
    },
  );
  return { reply, progress };
}
const ok = (reply: ReplyMessage): unknown => {
  if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
  return reply.data;
};
const code = (reply: ReplyMessage) => (reply.ok ? 'ok' : reply.error.code);
const GB = 1024 ** 3;

describe('storage commands (sim device)', () => {
  it('answers a 64 GB eMMC for a Jetson and three disks for an x86 box', async () => {
    const jetson = TotalStorageInfo.parse(
      ok((await call(harness('jetson'), 'get-total-storage-info', {})).reply),
    );
    expect(jetson.filesystems).toHaveLength(1);
    expect(jetson.filesystems[0]).toMatchObject({ mount: '/', device: '/dev/mmcblk0p1', type: 'ext4' });
    expect(jetson.total.size).toBeGreaterThan(50 * GB);
    expect(jetson.total.size).toBeLessThan(64 * GB);
    expect(jetson.total.used).toBeGreaterThan(20 * GB);
    const x86 = TotalStorageInfo.parse(ok((await call(harness('x86'), 'get-total-storage-info', {})).reply));
    expect(x86.filesystems.map((f) => f.mount)).toEqual(['/data', '/', '/boot/efi']);
  });

  it('scans a folder with progress and answers its largest child folders', async () => {
    const h = harness();
    const { reply, progress } = await call(h, 'get-occupied-storage-of-directory', {
      path: '/',
      scan_id: 's1',
      top: 3,
    });
    const usage = DirectoryUsage.parse(ok(reply));
    expect(usage.largest.map((f) => f.name)).toEqual(['var', 'usr', 'opt']);
    expect(usage.bytes).toBeGreaterThan(20 * GB);
    expect(usage.largest.reduce((s, f) => s + f.bytes, 0)).toBeLessThanOrEqual(usage.bytes);
    expect(progress.length).toBeGreaterThan(10);
    const bytes = progress.map((p) => ScanProgress.parse(p.data).bytes);
    expect(bytes).toEqual([...bytes].sort((a, b) => a - b));
    expect(bytes[bytes.length - 1]).toBe(usage.bytes);
    expect(JSON.stringify(reply).length).toBeLessThan(16_000);
  });

  it('refuses a second scan with the same id, cancels a scan, and says when nothing was canceled', async () => {
    const h = harness();
    let canceled: Promise<unknown> | null = null;
    const first = call(h, 'get-occupied-storage-of-directory', { path: '/', scan_id: 's1' }, () => {
      canceled ??= call(h, 'get-occupied-storage-of-directory', { path: '/usr', scan_id: 's1' }).then(
        async ({ reply }) => {
          expect(code(reply)).toBe('busy');
          return ok((await call(h, 'cancel-storage-scan', { scan_id: 's1' })).reply);
        },
      );
    });
    expect(code((await first).reply)).toBe('canceled');
    expect(await canceled).toEqual({ canceled: true });
    expect(ok((await call(h, 'cancel-storage-scan', { scan_id: 's1' })).reply)).toEqual({ canceled: false });
  });

  it('answers coded errors for missing folders and hostile payloads', async () => {
    const h = harness();
    const scan = (payload: unknown) => call(h, 'get-occupied-storage-of-directory', payload);
    expect(code((await scan({ path: '/no/such', scan_id: 'a' })).reply)).toBe('not_found');
    for (const bad of [
      { path: 'relative', scan_id: 'a' },
      { path: '/', scan_id: 'has space' },
      { path: '/', scan_id: 'a', top: 10_000 },
      { path: 42, scan_id: 'a' },
      {},
    ]) {
      expect(code((await scan(bad)).reply)).toBe('invalid_payload');
    }
    expect(code((await call(h, 'delete-product-data', { path: '/etc' })).reply)).toBe('invalid_payload');
    expect(code((await call(h, 'get-storage-images', { kind: 'all' })).reply)).toBe('invalid_payload');
  });

  it('lists the three image kinds with RepoTags and Size', async () => {
    const h = harness('x86');
    const kinds = Object.fromEntries(
      await Promise.all(
        (['product', 'inference-engine', 'companion'] as const).map(async (kind) => [
          kind,
          ImageList.parse(ok((await call(h, 'get-storage-images', { kind })).reply)),
        ]),
      ),
    );
    expect(kinds['product'].images.map((i: { RepoTags: string[] }) => i.RepoTags[0])).toEqual([
      'edge/python:3.11',
    ]);
    expect(kinds['inference-engine'].images[0].RepoTags).toEqual(['nvcr.io/nvidia/tritonserver:24.01-py3']);
    expect(kinds['inference-engine'].count).toBe(2);
    expect(kinds['companion'].images.map((i: { RepoTags: string[] }) => i.RepoTags[0])).toEqual([
      'redis:7-alpine',
      'eclipse-mosquitto:2.0',
    ]);
    expect(kinds['companion'].bytes).toBe(
      kinds['companion'].images.reduce((s: number, i: { Size: number }) => s + i.Size, 0),
    );
  });

  it('classifies images by their first tag', () => {
    expect(imageKind({ RepoTags: ['edge/inference-engine:r36'] })).toBe('inference-engine');
    expect(imageKind({ RepoTags: ['localhost:5000/edge/app:1'] })).toBe('companion');
    expect(imageKind({ RepoTags: ['edge/jupyter-pytorch:2.3-jetson'] })).toBe('product');
    expect(imageKind({ RepoTags: [] })).toBe('companion');
    expect(imageKind({ RepoTags: ['nvcr.io/nvidia/deepstream:7.0-triton'] })).toBe('inference-engine');
  });

  it('spaces progress messages and stops a scan that runs too long', async () => {
    const deps = { mode: 'sim', backend: { kind: 'jetson' }, log: silentLogger } as unknown as AgentPartDeps;
    const slow = createDeviceStorage(deps, { simStepMs: 5, progressEveryMs: 40 });
    const at: number[] = [];
    await slow.scan({ scanId: 'a', path: '/', top: 3, onProgress: () => at.push(Date.now()) });
    expect(at.length).toBeGreaterThan(1);
    // ≥ 40 ms apart as the part measured them (this side reads the clock a moment later: ±1 ms each).
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(38);
    const bounded = createDeviceStorage(deps, { simStepMs: 5, scanMaxMs: 30 });
    await expect(bounded.scan({ scanId: 'b', path: '/', top: 3 })).rejects.toMatchObject({
      code: 'canceled',
      message: 'The scan ran longer than 0.03 s and was stopped',
    });
    // The id is free again: a new scan with it runs.
    expect(bounded.cancelScan('b')).toBe(false);
  });

  it('answers engine_unavailable when no Docker engine answers', async () => {
    const down = {
      listImages: async () => {
        throw new ContainerEngineError('engine_unavailable', 'No Docker engine is reachable');
      },
      close: async () => undefined,
    } as unknown as ContainerEngine;
    const { reply } = await call(harness('jetson', down), 'get-storage-images', { kind: 'product' });
    expect(code(reply)).toBe('engine_unavailable');
  });

  it('deletes product data after confirmation only, inside its folders only, and frees the space', async () => {
    const h = harness();
    const before = ProductData.parse(ok((await call(h, 'get-product-data', {})).reply));
    expect(before.root).toBe(SIM_PRODUCT_DATA_ROOT);
    const recordings = before.folders.find((f) => f.id === 'recordings')!;
    expect(recordings.bytes).toBeGreaterThan(GB);
    const total = TotalStorageInfo.parse(ok((await call(h, 'get-total-storage-info', {})).reply));

    const del = (payload: unknown) => call(h, 'delete-product-data', payload);
    expect(code((await del({ path: recordings.path })).reply)).toBe('invalid_payload'); // no confirm
    expect(code((await del({ path: recordings.path, confirm: false })).reply)).toBe('invalid_payload');
    for (const path of [
      '/etc',
      SIM_PRODUCT_DATA_ROOT,
      `${recordings.path}/../../..`,
      '/var/lib/edge-agent',
    ]) {
      expect(code((await del({ path, confirm: true })).reply)).toBe('forbidden');
    }
    expect(code((await del({ path: `${recordings.path}/cam-9`, confirm: true })).reply)).toBe('not_found');

    const cam1 = ok((await del({ path: `${recordings.path}/cam-1`, confirm: true })).reply) as {
      freed: number;
    };
    expect(cam1.freed).toBeGreaterThan(GB);
    const rest = ok((await del({ path: recordings.path, confirm: true })).reply) as { freed: number };
    expect(cam1.freed + rest.freed).toBe(recordings.bytes);
    const after = ProductData.parse(ok((await call(h, 'get-product-data', {})).reply));
    expect(after.folders.find((f) => f.id === 'recordings')).toMatchObject({ bytes: 0, files: 0 });
    expect(after.folders.find((f) => f.id === 'models')!.bytes).toBeGreaterThan(0);
    const totalAfter = TotalStorageInfo.parse(ok((await call(h, 'get-total-storage-info', {})).reply));
    expect(total.total.used - totalAfter.total.used).toBe(recordings.bytes);
  });
});
