/**
 * The storage feature's console side on the agent's real handlers: the console's storage actors
 * (features/storage/actors.ts) call a fake peer link that dispatches to the agent's handlers on a sim Jetson
 * (src/agent/storage sim). Checks the actor flow (overview, a scan with progress, a confirmed delete), the
 * pure selectors, and what the Storage tab renders (server-side): labels, test ids, the three image kinds.
 */
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createActor, setup, type AnyActorRef } from 'xstate';
import '../../../src/console/i18n';
import type { StorageRef } from '../../../src/console/features/storage/selectors';
import { handlers } from '../../../src/agent/commands';
import type { CommandContext } from '../../../src/agent/commands';
import { createSimEngine } from '../../../src/agent/containers/sim';
import { dispatchRequest } from '../../../src/agent/link/dispatcher';
import { silentLogger } from '../../../src/agent/log';
import type { AgentPartDeps } from '../../../src/agent/parts';
import { createDeviceStorage } from '../../../src/agent/storage';
import type { Platform } from '../../../src/console/features/feature';
import { storageActors } from '../../../src/console/features/storage/actors';
import { isScanProgress } from '../../../src/console/features/storage/api';
import StorageTab from '../../../src/console/features/storage/screens/StorageTab';
import {
  formatBytes,
  percentOf,
  scanToView,
  storageToView,
} from '../../../src/console/features/storage/selectors';
import { WithMantine } from '../../../src/console/shell/mantine';
import { SystemProvider, type ConsoleSystem } from '../../../src/console/shell/SystemProvider';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A console root with the storage actor, on a fake link to the agent's handlers on a sim Jetson. */
function consoleOnSimDevice() {
  const engine = createSimEngine({ deviceId: 'dev-1', deviceName: 'Sim', kind: 'jetson', hasGpu: true });
  const storage = createDeviceStorage(
    {
      mode: 'sim',
      backend: { kind: 'jetson' },
      deviceId: 'dev-1',
      label: 'Sim',
      stateDir: '/nonexistent',
      log: silentLogger,
      broadcast: () => undefined,
    } as unknown as AgentPartDeps,
    { simStepMs: 1, progressEveryMs: 0 },
  );
  closers.push(async () => {
    await storage.close();
    await engine.close();
  });
  const ctx = { deviceId: 'dev-1', containers: engine, storage } as Partial<CommandContext> as CommandContext;
  let n = 0;
  const calls: string[] = [];
  const platform = {
    browserId: 'w',
    peerLink: {
      callDevice: async (
        _deviceId: string,
        process: string,
        payload: unknown,
        options?: { onProgress?: (d: unknown) => void },
      ) => {
        calls.push(process);
        const reply = await dispatchRequest(
          { type: 'request', process, requestId: `r${++n}`, payload },
          handlers,
          ctx,
          silentLogger,
          (m) => options?.onProgress?.(m.data),
        );
        if (!reply.ok) throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
        return reply.data;
      },
    },
  } as unknown as Platform;
  const [actor] = storageActors(platform);
  const root = setup({}).createMachine({
    context: { loaded: ['storage'] },
    invoke: [{ id: 'storage', systemId: 'storage', src: actor!.logic }] as never,
  });
  const system = createActor(root).start() as unknown as ConsoleSystem;
  const ref = system.system.get('storage') as StorageRef;
  return { system, ref, calls };
}

/** Resolves once `ref`'s snapshot passes `test` (the actors answer asynchronously). */
function until<T extends AnyActorRef>(ref: T, test: (s: ReturnType<T['getSnapshot']>) => boolean) {
  return new Promise<void>((resolve) => {
    if (test(ref.getSnapshot())) return resolve();
    const sub = ref.subscribe((s) => {
      if (test(s as ReturnType<T['getSnapshot']>)) {
        sub.unsubscribe();
        resolve();
      }
    });
  });
}

describe('storage selectors', () => {
  it('writes sizes in binary units and percents within 0–100', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(57_842_690_048)).toBe('53.9 GiB');
    expect(formatBytes(1536, 'de')).toBe('1,5 KiB');
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(5, 0)).toBe(0);
    expect(percentOf(7, 5)).toBe(100);
  });

  it('accepts only well-formed progress data', () => {
    expect(isScanProgress({ scan_id: 's', files: 1, dirs: 1, bytes: 0, errors: 0 })).toBe(true);
    expect(isScanProgress({ scan_id: 's', files: -1, dirs: 1, bytes: 0, errors: 0 })).toBe(false);
    expect(isScanProgress('x')).toBe(false);
  });
});

describe('storage tab on a sim device', () => {
  it('loads the overview, scans with progress, and deletes product data only once confirmed', async () => {
    const { ref, calls } = consoleOnSimDevice();
    ref.send({ type: 'storage.open', deviceId: 'dev-1' });
    await until(ref, (s) => s.context.overview !== null);
    const view = storageToView(ref.getSnapshot());
    expect(view.filesystems).toHaveLength(1);
    expect(view.filesystems[0]).toMatchObject({ mount: '/', device: '/dev/mmcblk0p1' });
    expect(view.images.map((i) => i.kind)).toEqual(['product', 'inference-engine', 'companion']);
    expect(view.images[1]!.rows[0]!.tags).toEqual(['nvcr.io/nvidia/deepstream-l4t:6.3-triton-multiarch']);
    const usedBefore = view.total!.used;

    ref.send({ type: 'storage.scan', path: '/var' });
    const scan = ref.getSnapshot().context.scans[0]!;
    const seen: number[] = [];
    scan.subscribe((s) => seen.push(s.context.progress?.files ?? 0));
    await until(scan, (s) => s.status === 'done');
    const result = scanToView(scan.getSnapshot());
    expect(result.status).toBe('done');
    expect(result.largest.map((f) => f.name)).toEqual(['lib', 'cache', 'log']);
    expect(result.largest[0]!.bar).toBe(100);
    expect(seen.length).toBeGreaterThan(3);

    const recordings = view.productFolders.find((f) => f.id === 'recordings')!;
    ref.send({ type: 'storage.delete', path: recordings.path });
    expect(storageToView(ref.getSnapshot()).confirming).toMatchObject({ id: 'recordings' });
    ref.send({ type: 'storage.delete.cancel' });
    expect(calls).not.toContain('delete-product-data');
    ref.send({ type: 'storage.delete', path: recordings.path });
    ref.send({ type: 'storage.delete.confirm' });
    await until(ref, (s) => s.context.lastDeleted !== null && !s.hasTag('loading'));
    const after = storageToView(ref.getSnapshot());
    expect(after.lastDeleted!.freed).toBe(recordings.bytes);
    expect(after.total!.used).toBe(usedBefore - recordings.bytes);
    expect(after.productFolders.find((f) => f.id === 'recordings')).toMatchObject({ bytes: 0, files: 0 });
  });

  it('renders disks with named usage bars, the scan chart, the image kinds and product data', async () => {
    const { system, ref } = consoleOnSimDevice();
    ref.send({ type: 'storage.open', deviceId: 'dev-1' });
    await until(ref, (s) => s.context.overview !== null);
    ref.send({ type: 'storage.scan', path: '/' });
    await until(ref.getSnapshot().context.scans[0]!, (s) => s.status === 'done');
    const html = renderToString(
      <SystemProvider system={system}>
        <WithMantine>
          <StorageTab deviceId="dev-1" />
        </WithMantine>
      </SystemProvider>,
    );
    expect(html).toContain('data-testid="storage-tab"');
    expect(html).toContain('aria-label="Used space on /"');
    expect(html).toMatch(/of 53\.9 GiB used \(\d+ %\)/);
    expect(html).toContain('data-testid="storage-largest"');
    expect(html).toContain('Largest folders in /');
    for (const kind of ['product', 'inference-engine', 'companion']) {
      expect(html).toContain(`data-testid="storage-images-${kind}"`);
    }
    expect(html).toContain('edge/python:3.11');
    expect(html).toContain('redis:7-alpine');
    expect(html).toContain('aria-label="Delete Recordings"');
    expect(html).toContain('/var/lib/edge-agent/product-data/models');
  });
});
