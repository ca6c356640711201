import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDockerEngine, demuxDockerLog } from '../../../src/agent/containers/docker';
import type { GpuMode } from '../../../src/agent/containers/docker';
import { ContainerEngineError } from '../../../src/agent/containers/engine';
import { Container, DockerImage, downloadPercent, remoteBasePath } from '../../../src/protocol/containers';
import type { LayerProgress } from '../../../src/protocol/containers';
import { frame, imageInspect, pullLines, startFakeDocker } from './fakeDockerApi';
import type { FakeDocker } from './fakeDockerApi';

const DEVICE = { deviceId: 'dev-1', deviceName: 'Lab Jetson' };
let fake: FakeDocker;

const engine = (gpu: GpuMode = null, extra: { jupyterTimeoutMs?: number } = {}) =>
  createDockerEngine({ ...DEVICE, socketPath: fake.socketPath, gpu, ...extra });
const sent = (method: string, pathRe: RegExp) =>
  fake.requests.filter((r) => r.method === method && pathRe.test(r.path));

beforeEach(async () => {
  fake = await startFakeDocker();
  fake.images.set('edge/python:3.11', imageInspect('edge/python:3.11', 180_000_000));
});
afterEach(async () => {
  await fake.close();
});

describe('Docker adapter: engine and images', () => {
  it('pings the engine, and names the socket when none answers', async () => {
    await expect(engine().ping()).resolves.toBeUndefined();
    await expect(engine().available()).resolves.toBe(true);
    const missing = createDockerEngine({ ...DEVICE, socketPath: `${fake.socketPath}.none`, gpu: null });
    const err = await missing.ping().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContainerEngineError);
    expect(err).toMatchObject({
      code: 'engine_unavailable',
      message: `No Docker engine is reachable at ${fake.socketPath}.none: connect ENOENT`,
    });
    await expect(missing.available()).resolves.toBe(false);
    await expect(missing.list()).rejects.toMatchObject({ code: 'engine_unavailable' });
  });

  it('inspects an image: present → DockerImage, missing (404 "No such image") → null', async () => {
    const img = await engine().inspectImage('edge/python:3.11');
    expect(DockerImage.parse(img)).toEqual({
      Id: `sha256:${'ab'.repeat(32)}`,
      RepoTags: ['edge/python:3.11'],
      Size: 180_000_000,
      Created: Math.floor(Date.parse('2024-05-02T09:41:27Z') / 1000),
    });
    await expect(engine().inspectImage('edge/jupyter-pytorch:2.3-x86')).resolves.toBeNull();
    expect(sent('GET', /^\/images\/.+\/json$/).map((r) => r.path)).toEqual([
      '/images/edge/python:3.11/json',
      '/images/edge/jupyter-pytorch:2.3-x86/json',
    ]);
  });

  it('lists images', async () => {
    const images = await engine().listImages();
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ RepoTags: ['edge/python:3.11'], Size: 180_000_000 });
  });

  it('pulls with followProgress: per-layer progress, then the image', async () => {
    const ref = 'edge/jupyter-pytorch:2.3-x86';
    fake.pulls.set(ref, pullLines(ref));
    const seen: LayerProgress[][] = [];
    const image = await engine().pull(ref, (l) => seen.push(l));
    expect(image.RepoTags).toEqual([ref]);
    const create = sent('POST', /^\/images\/create$/)[0]!;
    expect(create.query).toMatchObject({ fromImage: 'edge/jupyter-pytorch', tag: '2.3-x86' });
    // 'Pulling from', 'Digest' and 'Status' lines are not layers.
    expect(seen).toHaveLength(16);
    const last = seen[seen.length - 1]!;
    expect(last.map((l) => [l.id, l.status])).toEqual([
      ['d3c894b5b2b0', 'Already exists'],
      ['4abcf2066143', 'Pull complete'],
      ['8a1e25ce7c4f', 'Pull complete'],
    ]);
    // Phases without sizes keep the layer's size.
    expect(last[1]).toMatchObject({ current: 4_194_304, total: 4_194_304 });
    expect(seen[4]!.find((l) => l.id === '4abcf2066143')).toMatchObject({
      status: 'Downloading',
      current: 1_048_576,
    });
    expect(seen[4]!.find((l) => l.id === '8a1e25ce7c4f')).toMatchObject({ status: 'Waiting', total: 0 });
    expect(downloadPercent(last)).toBe(100);
  });

  it('fails a pull on an error line (manifest unknown) as not_found', async () => {
    const ref = 'edge/python:9.9';
    fake.pulls.set(ref, [
      JSON.stringify({ status: 'Pulling from edge/python', id: '9.9' }),
      JSON.stringify({ errorDetail: { message: 'manifest unknown' }, error: 'manifest unknown' }),
    ]);
    const err = await engine()
      .pull(ref, () => undefined)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'not_found',
      message: `Docker could not pull ${ref}: manifest unknown`,
    });
  });

  it('fails a pull the engine refuses with HTTP 404 as not_found with its words', async () => {
    const err = await engine()
      .pull('edge/secret:1', () => undefined)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContainerEngineError);
    expect((err as ContainerEngineError).code).toBe('not_found');
    expect((err as Error).message).toMatch(
      /^Docker could not pull edge\/secret:1: pull access denied for edge\/secret/,
    );
  });

  it('cancels a pull: the stream is destroyed and the pull rejects canceled', async () => {
    const ref = 'edge/jupyter-tensorflow:2.16';
    fake.pulls.set(ref, [...pullLines(ref), ...pullLines(ref), ...pullLines(ref)]);
    fake.pullLineDelayMs = 30;
    const ctl = new AbortController();
    const p = engine().pull(
      ref,
      () => {
        ctl.abort();
      },
      ctl.signal,
    );
    await expect(p).rejects.toMatchObject({ code: 'canceled' });
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.abortedPulls).toEqual([ref]);
    expect(fake.images.has(ref)).toBe(false);
  });
});

describe('Docker adapter: containers', () => {
  it('creates with labels, a loopback port binding on a free port and the x86 GPU request', async () => {
    const c = await engine('nvidia').create({
      image: 'edge/python:3.11',
      envName: 'py-lab',
      name: 'my-lab',
      jupyterPort: 8888,
      gpu: true,
    });
    const body = sent('POST', /^\/containers\/create$/)[0]!;
    // dockerode sends the options as JSON body (and, ignored by Docker, in the query too).
    expect(body.query).toMatchObject({ name: 'my-lab' });
    expect(body.body).toEqual({
      name: 'my-lab',
      Image: 'edge/python:3.11',
      Tty: true,
      OpenStdin: true,
      Labels: {
        'edge-console.env': 'py-lab',
        'edge-console.gpu': 'true',
        'edge-console.jupyter-port': '8888',
      },
      ExposedPorts: { '8888/tcp': {} },
      HostConfig: {
        PortBindings: { '8888/tcp': [{ HostIp: '127.0.0.1', HostPort: '' }] },
        DeviceRequests: [{ Driver: 'nvidia', Count: -1, Capabilities: [['gpu']] }],
      },
    });
    expect(Container.parse(c)).toMatchObject({
      Name: 'my-lab',
      State: 'created',
      Status: 'Created',
      Jupyter: false,
      LocalPort: null,
      api_url: null,
      EnvName: 'py-lab',
      Gpu: true,
      deviceId: 'dev-1',
      deviceName: 'Lab Jetson',
    });
  });

  it('asks Jetson GPUs through the nvidia runtime, and none on a device without a GPU', async () => {
    await engine('jetson').create({ image: 'edge/python:3.11', envName: 'a', jupyterPort: null, gpu: true });
    await engine(null).create({ image: 'edge/python:3.11', envName: 'b', jupyterPort: null, gpu: true });
    const [jetson, none] = sent('POST', /^\/containers\/create$/).map(
      (r) => r.body as Record<string, unknown>,
    );
    expect(jetson!.HostConfig).toEqual({ Runtime: 'nvidia' });
    expect(none!.HostConfig).toEqual({});
    expect(none!.Labels).toEqual({ 'edge-console.env': 'b' });
  });

  it('answers not_found for a missing image and conflict for a taken name', async () => {
    const e = engine();
    await expect(
      e.create({ image: 'edge/nope:1', envName: 'x', jupyterPort: null, gpu: false }),
    ).rejects.toMatchObject({ code: 'not_found', message: 'No such image: edge/nope:1' });
    await e.create({ image: 'edge/python:3.11', envName: 'x', name: 'twin', jupyterPort: null, gpu: false });
    await expect(
      e.create({ image: 'edge/python:3.11', envName: 'x', name: 'twin', jupyterPort: null, gpu: false }),
    ).rejects.toMatchObject({ code: 'conflict' });
  });

  it('starts, stops (304 tolerated), lists, removes (stopping first)', async () => {
    const e = engine();
    const c = await e.create({ image: 'edge/python:3.11', envName: 'py', jupyterPort: 8888, gpu: false });
    const started = await e.start(c.Id.slice(0, 12));
    expect(started).toMatchObject({ State: 'running', Status: 'Up 3 seconds', LocalPort: 49_153 });
    expect(started.api_url).toBe(remoteBasePath('dev-1', c.Id));
    await expect(e.start(c.Id)).resolves.toMatchObject({ State: 'running' }); // 304
    const list = await e.list();
    expect(list.map((x) => x.Id)).toEqual([c.Id]);
    expect(await e.webTarget(c.Id.slice(0, 12))).toEqual({ host: '127.0.0.1', port: 49_153 });
    expect(await e.webTarget('not-hex/../x')).toBeNull();
    const stopped = await e.stop(c.Id);
    expect(stopped).toMatchObject({ State: 'exited', Status: 'Exited (0) 2 seconds ago', LocalPort: null });
    expect(await e.webTarget(c.Id)).toBeNull();
    await expect(e.stop(c.Id)).resolves.toMatchObject({ State: 'exited' }); // 304
    await e.start(c.Id);
    await expect(e.remove(c.Id)).resolves.toBe(c.Id);
    const stops = sent('POST', /\/stop$/);
    expect(stops[stops.length - 1]!.query).toEqual({ t: '10' });
    expect(sent('DELETE', /^\/containers\//)[0]!.query).toEqual({ v: 'true' });
    await expect(e.list()).resolves.toEqual([]);
    await expect(e.get(c.Id)).resolves.toBeNull();
    await expect(e.start(c.Id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('reads logs through Docker’s multiplexed framing', async () => {
    const e = engine();
    const c = await e.create({ image: 'edge/python:3.11', envName: 'py', jupyterPort: null, gpu: false });
    const fc = fake.containers.get(c.Id)!;
    fc.Tty = false;
    fc.log = [
      [1, 'one\n'],
      [2, 'two (stderr)\n'],
      [1, 'three\nfour\n'],
    ];
    await expect(e.logs(c.Id, 200)).resolves.toEqual(['one', 'two (stderr)', 'three', 'four']);
    await expect(e.logs(c.Id, 1)).resolves.toEqual(['four']);
    expect(sent('GET', /\/logs$/)[0]!.query).toMatchObject({ stdout: 'true', stderr: 'true', tail: '200' });
    expect(demuxDockerLog(Buffer.concat([frame(1, 'a'), frame(2, 'b\n')]), false)).toBe('ab\n');
    expect(demuxDockerLog(Buffer.from('raw tty\n'), true)).toBe('raw tty\n');
  });

  it('starts Jupyter with docker exec (no token, base_url) and waits until it answers HTTP', async () => {
    const hits: string[] = [];
    const jupyter = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(hits.length < 3 ? 503 : 200).end('{}');
    });
    await new Promise<void>((r) => jupyter.listen(0, '127.0.0.1', r));
    const port = (jupyter.address() as AddressInfo).port;
    fake.nextHostPort = port;
    try {
      const e = engine();
      const c = await e.create({ image: 'edge/python:3.11', envName: 'py', jupyterPort: 8888, gpu: false });
      const base = remoteBasePath('dev-1', c.Id);
      const after = await e.startJupyter(c.Id, base);
      const exec = sent('POST', /\/exec$/)[0]!;
      expect(exec.body).toMatchObject({
        Cmd: [
          'jupyter',
          'lab',
          '--ip=0.0.0.0',
          '--port=8888',
          '--no-browser',
          '--allow-root',
          `--ServerApp.base_url=${base}`,
          '--ServerApp.token=',
          '--ServerApp.password=',
        ],
      });
      expect(sent('POST', /^\/exec\/.+\/start$/)[0]!.body).toMatchObject({ Detach: true });
      expect(hits[0]).toBe(`${base}api/status`);
      expect(after).toMatchObject({ State: 'running', Jupyter: true, LocalPort: port, api_url: base });
    } finally {
      jupyter.closeAllConnections();
      await new Promise<void>((r) => jupyter.close(() => r()));
    }
  });

  it('gives up on a Jupyter that never answers or exits, and refuses containers without a Jupyter port', async () => {
    fake.nextHostPort = 9; // discard port: nothing listens
    const e = engine(null, { jupyterTimeoutMs: 300 });
    const c = await e.create({ image: 'edge/python:3.11', envName: 'py', jupyterPort: 8888, gpu: false });
    await expect(e.startJupyter(c.Id, '/remote/dev-1/x/')).rejects.toMatchObject({
      code: 'failed',
      message: 'Jupyter did not answer within 0.3 s',
    });
    fake.execExitCode = 127;
    const noJupyter = await e.create({
      image: 'edge/python:3.11',
      envName: 'py',
      jupyterPort: 8888,
      gpu: false,
    });
    await expect(e.startJupyter(noJupyter.Id, '/remote/dev-1/y/')).rejects.toMatchObject({
      code: 'failed',
      message: 'Jupyter exited with code 127 (is JupyterLab installed in the image?)',
    });
    const plain = await e.create({ image: 'edge/python:3.11', envName: 'py', jupyterPort: null, gpu: false });
    await expect(e.startJupyter(plain.Id, '/remote/dev-1/x/')).rejects.toMatchObject({ code: 'not_found' });
  });
});
