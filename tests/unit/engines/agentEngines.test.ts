/**
 * check-inference-engine-exist on both backends (§7; src/agent/engines): the sim engine and DeepStream from the
 * sim container engine (not installed → downloading with its percent → ready, through the real
 * download-docker-image handler); on `host`, ONNX Runtime with the providers that really load here, and
 * DeepStream only with a GPU (native, or unavailable when no Docker engine answers).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { handlers } from '../../../src/agent/commands';
import type { CommandContext } from '../../../src/agent/commands';
import type { Backend } from '../../../src/agent/backends/types';
import { createDockerEngine } from '../../../src/agent/containers/docker';
import { ProcessTracker } from '../../../src/agent/containers/processes';
import { createSimEngine } from '../../../src/agent/containers/sim';
import { checkInferenceEngines } from '../../../src/agent/engines';
import { dispatchRequest } from '../../../src/agent/link/dispatcher';
import { silentLogger } from '../../../src/agent/log';
import { CheckInferenceEnginesReply, DEEPSTREAM_IMAGE } from '../../../src/protocol/engines';
import type { ReplyMessage } from '../../../src/protocol';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

function fakeBackend(name: 'host' | 'sim', kind: 'jetson' | 'x86', gpus: string[]) {
  return {
    name,
    kind,
    systemInformation: async () => ({ gpus: gpus.map((g) => ({ name: g, driver_version: '550.54.15' })) }),
  } as unknown as Backend;
}

function simContext(kind: 'jetson' | 'x86') {
  const engine = createSimEngine({
    deviceId: 'dev-1',
    deviceName: 'Sim',
    kind,
    hasGpu: true,
    timeScale: 0.3,
  });
  const tracker = new ProcessTracker({ device: 'dev-1', engine, broadcast: () => undefined });
  closers.push(
    () => engine.close(),
    () => tracker.close(),
  );
  return {
    deviceId: 'dev-1',
    browserId: 'b',
    linkId: 'l',
    startedAt: Date.now(),
    version: '9.9.9',
    backend: fakeBackend('sim', kind, []),
    containers: engine,
    dockerProcesses: tracker,
    broadcast: () => undefined,
  } as Partial<CommandContext> as CommandContext;
}

let n = 0;
async function call(ctx: CommandContext, process: string, payload: unknown = {}) {
  const reply: ReplyMessage = await dispatchRequest(
    { type: 'request', process, requestId: `r${++n}`, payload },
    handlers,
    ctx,
    silentLogger,
    () => undefined,
  );
  if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
  return reply.data;
}

describe('check-inference-engine-exist on a sim device', () => {
  it('lists the sim engine and DeepStream, whose image downloads with progress and then is ready', async () => {
    const ctx = simContext('jetson');
    const first = CheckInferenceEnginesReply.parse(await call(ctx, 'check-inference-engine-exist'));
    expect(first).toMatchObject({ backend: 'sim', kind: 'jetson', gpu: true });
    expect(first.engines.map((e) => [e.name, e.state, e.runs_in])).toEqual([
      ['sim', 'ready', 'simulated'],
      ['deepstream', 'not_installed', 'container'],
    ]);
    expect(first.engines[0]!.version).toBe('9.9.9');
    expect(first.engines[1]).toMatchObject({ image: DEEPSTREAM_IMAGE, image_size_mb: 5_600 });
    expect(await call(ctx, 'check-docker-image', { image: DEEPSTREAM_IMAGE })).toMatchObject({ status: 404 });

    const download = call(ctx, 'download-docker-image', { image: DEEPSTREAM_IMAGE });
    let seen: CheckInferenceEnginesReply['engines'][number] | undefined;
    for (
      let i = 0;
      i < 100 && !(seen && seen.state === 'downloading' && (seen.download_percent ?? 0) > 0);
      i++
    ) {
      await new Promise((r) => setTimeout(r, 50));
      seen = CheckInferenceEnginesReply.parse(await call(ctx, 'check-inference-engine-exist')).engines[1];
    }
    expect(seen?.state).toBe('downloading');
    expect(seen?.download_percent).toBeGreaterThan(0);
    expect(await download).toMatchObject({ image: DEEPSTREAM_IMAGE, status: 'downloaded' });
    const after = CheckInferenceEnginesReply.parse(await call(ctx, 'check-inference-engine-exist'));
    expect(after.engines[1]).toMatchObject({ state: 'ready', version: '7.1', download_percent: null });
    const images = (await call(ctx, 'docker-image')) as { images: { RepoTags: string[] }[] };
    expect(images.images.some((i) => i.RepoTags.includes(DEEPSTREAM_IMAGE))).toBe(true);
  });
});

describe('check-inference-engine-exist on a host device', () => {
  it('reports ONNX Runtime with the providers that load here and no DeepStream without a GPU', async () => {
    const docker = createDockerEngine({
      deviceId: 'h',
      deviceName: 'H',
      socketPath: '/nonexistent.sock',
      gpu: null,
    });
    closers.push(() => docker.close());
    const reply = await checkInferenceEngines({
      backend: fakeBackend('host', 'x86', []),
      containers: docker,
      dockerProcesses: { list: () => [] },
      version: '1.0.0',
    });
    expect(reply).toMatchObject({ backend: 'host', kind: 'x86', gpu: false });
    expect(reply.engines).toHaveLength(1);
    const ort = reply.engines[0]!;
    expect(ort).toMatchObject({ name: 'onnxruntime', state: 'ready', runs_in: 'native', version: '1.30.0' });
    expect(ort.execution_providers.at(-1)).toEqual({ name: 'cpu', available: true, error: null });
    expect(ort.execution_provider).toBe(ort.execution_providers.find((p) => p.available)!.name);
  });

  it('with a GPU: DeepStream native when installed, else unavailable when no Docker engine answers', async () => {
    const docker = createDockerEngine({
      deviceId: 'h',
      deviceName: 'H',
      socketPath: '/nonexistent.sock',
      gpu: null,
    });
    closers.push(() => docker.close());
    const deps = {
      backend: fakeBackend('host', 'x86', ['NVIDIA RTX A2000']),
      containers: docker,
      dockerProcesses: { list: () => [] },
      version: '1.0.0',
      probeOnnx: async () => ({
        version: '1.30.0',
        providers: [{ name: 'cpu', available: true, error: null }],
      }),
    };
    const native = await checkInferenceEngines({ ...deps, readDeepStreamVersion: async () => '7.0' });
    expect(native.engines[1]).toMatchObject({
      name: 'deepstream',
      state: 'ready',
      runs_in: 'native',
      version: '7.0',
    });
    const none = await checkInferenceEngines({ ...deps, readDeepStreamVersion: async () => null });
    expect(none.gpu).toBe(true);
    expect(none.engines[1]).toMatchObject({
      name: 'deepstream',
      state: 'unavailable',
      image: DEEPSTREAM_IMAGE,
    });
    expect(none.engines[1]!.message).toMatch(/No Docker engine is reachable at \/nonexistent\.sock/);
  });

  it('says so when no execution provider loads', async () => {
    const reply = await checkInferenceEngines({
      backend: fakeBackend('host', 'jetson', []),
      containers: createSimEngine({ deviceId: 'h', deviceName: 'H', kind: 'jetson', hasGpu: true }),
      dockerProcesses: { list: () => [] },
      version: '1.0.0',
      probeOnnx: async () => ({
        version: '1.30.0',
        providers: [{ name: 'cpu', available: false, error: 'boom' }],
      }),
      readDeepStreamVersion: async () => null,
    });
    expect(reply.engines[0]).toMatchObject({
      state: 'unavailable',
      execution_provider: null,
      message: 'No execution provider loads on this device',
    });
    expect(reply.engines[1]).toMatchObject({ name: 'deepstream', state: 'not_installed' });
  });
});
