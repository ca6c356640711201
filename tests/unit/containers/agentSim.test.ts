import { afterEach, describe, expect, it } from 'vitest';
import { humanDuration } from '../../../src/agent/containers/engine';
import type { ContainerEngine } from '../../../src/agent/containers/engine';
import { createSimEngine } from '../../../src/agent/containers/sim';
import { SIM_PRESENT_IMAGES, SIM_REGISTRY } from '../../../src/agent/containers/simRegistry';
import { Container, downloadPercent, remoteBasePath } from '../../../src/protocol/containers';
import type { LayerProgress } from '../../../src/protocol/containers';

const engines: ContainerEngine[] = [];
const sim = (kind: 'jetson' | 'x86' = 'x86', timeScale = 0.02) => {
  const e = createSimEngine({ deviceId: 'dev-sim', deviceName: 'Sim Orin', kind, hasGpu: true, timeScale });
  engines.push(e);
  return e;
};
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
});

describe('sim registry', () => {
  it('lists the seed repositories; only edge/python:3.11 is present from the start', () => {
    expect(SIM_REGISTRY.map((r) => r.repository)).toEqual(
      expect.arrayContaining(['edge/jupyter-pytorch', 'edge/jupyter-tensorflow', 'edge/python']),
    );
    const pytorch = SIM_REGISTRY.find((r) => r.repository === 'edge/jupyter-pytorch')!;
    expect(pytorch.tags.map((t) => [t.tag, t.platform])).toEqual([
      ['2.3-jetson', 'jetson'],
      ['2.3-x86', 'x86'],
    ]);
    expect(SIM_PRESENT_IMAGES).toEqual(['edge/python:3.11']);
  });
});

describe('sim engine: images', () => {
  it('has edge/python:3.11 and not the Jupyter images', async () => {
    const e = sim();
    await expect(e.inspectImage('edge/python:3.11')).resolves.toMatchObject({
      RepoTags: ['edge/python:3.11'],
    });
    await expect(e.inspectImage('edge/jupyter-tensorflow:2.16')).resolves.toBeNull();
    expect((await e.listImages()).map((i) => i.RepoTags[0])).toEqual(['edge/python:3.11']);
  });

  it('pulls layer by layer with Docker statuses, progress rising to 100', async () => {
    const e = sim();
    const seen: LayerProgress[][] = [];
    const image = await e.pull('edge/jupyter-tensorflow:2.16', (l) => seen.push(l));
    expect(image.RepoTags).toEqual(['edge/jupyter-tensorflow:2.16']);
    await expect(e.inspectImage('edge/jupyter-tensorflow:2.16')).resolves.toEqual(image);
    expect(seen.length).toBeGreaterThan(10);
    const statuses = new Set(seen.flat().map((l) => l.status));
    for (const s of [
      'Already exists',
      'Pulling fs layer',
      'Waiting',
      'Downloading',
      'Download complete',
      'Extracting',
      'Pull complete',
    ]) {
      expect(statuses).toContain(s);
    }
    // Each layer's bytes of one phase never go back.
    for (let i = 1; i < seen.length; i++) {
      for (const l of seen[i]!) {
        const before = seen[i - 1]!.find((x) => x.id === l.id)!;
        if (before.status === l.status) expect(l.current).toBeGreaterThanOrEqual(before.current);
      }
    }
    // The overall percent, kept monotonic as the tracker does, ends at 100.
    let best = 0;
    const percents = seen.map((l) => (best = Math.max(best, downloadPercent(l))));
    expect(percents[0]).toBeLessThan(50);
    expect(percents[percents.length - 1]).toBe(100);
    expect(
      seen[seen.length - 1]!.every((l) => l.status === 'Pull complete' || l.status === 'Already exists'),
    ).toBe(true);
  });

  it('cancels a pull mid-way', async () => {
    const e = sim();
    const ctl = new AbortController();
    let events = 0;
    const p = e.pull(
      'edge/jupyter-pytorch:2.3-x86',
      () => {
        if (++events === 5) ctl.abort();
      },
      ctl.signal,
    );
    await expect(p).rejects.toMatchObject({ code: 'canceled' });
    expect(events).toBe(5);
    await expect(e.inspectImage('edge/jupyter-pytorch:2.3-x86')).resolves.toBeNull();
  });

  it('refuses unknown repositories, unknown tags and other platforms like Docker', async () => {
    const e = sim('jetson');
    await expect(e.pull('edge/nope:1', () => undefined)).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('pull access denied for edge/nope'),
    });
    await expect(e.pull('edge/python:2.7', () => undefined)).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('manifest unknown'),
    });
    await expect(e.pull('edge/jupyter-pytorch:2.3-x86', () => undefined)).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('no matching manifest for linux/arm64/v8'),
    });
  });
});

describe('sim engine: containers', () => {
  it('creates, starts, stops and removes with Docker-like states and statuses', async () => {
    const e = sim();
    const c = await e.create({ image: 'edge/python:3.11', envName: 'py', jupyterPort: null, gpu: true });
    expect(Container.parse(c)).toMatchObject({
      State: 'created',
      Status: 'Created',
      Image: 'edge/python:3.11',
      EnvName: 'py',
      Gpu: true,
      Jupyter: false,
      LocalPort: null,
      api_url: null,
      deviceId: 'dev-sim',
      deviceName: 'Sim Orin',
    });
    expect(c.Id).toMatch(/^[0-9a-f]{64}$/);
    expect(c.Name).toMatch(/^[a-z]+_[a-z]+$/);
    const up = await e.start(c.Id.slice(0, 12));
    expect(up).toMatchObject({ State: 'running', Status: 'Up Less than a second' });
    await expect(e.logs(c.Id, 10)).resolves.toContain('>>> ');
    const down = await e.stop(c.Name);
    expect(down).toMatchObject({ State: 'exited', Status: 'Exited (0) Less than a second ago' });
    await e.start(c.Id);
    await expect(e.remove(c.Id)).resolves.toBe(c.Id);
    await expect(e.list()).resolves.toEqual([]);
    await expect(e.get(c.Id)).resolves.toBeNull();
    await expect(e.stop(c.Id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses a missing image and a taken name', async () => {
    const e = sim();
    await expect(
      e.create({ image: 'edge/jupyter-tensorflow:2.16', envName: 'tf', jupyterPort: 8888, gpu: false }),
    ).rejects.toMatchObject({ code: 'not_found', message: 'No such image: edge/jupyter-tensorflow:2.16' });
    await e.create({ image: 'edge/python:3.11', envName: 'py', name: 'lab', jupyterPort: null, gpu: false });
    await expect(
      e.create({ image: 'edge/python:3.11', envName: 'py', name: 'lab', jupyterPort: null, gpu: false }),
    ).rejects.toMatchObject({ code: 'conflict' });
  });

  it('starts a simulated Jupyter reachable through webTarget; stop closes it', async () => {
    const e = sim();
    await e.pull('edge/jupyter-tensorflow:2.16', () => undefined);
    const c = await e.create({
      image: 'edge/jupyter-tensorflow:2.16',
      envName: 'tf',
      jupyterPort: 8888,
      gpu: false,
    });
    const base = remoteBasePath('dev-sim', c.Id);
    const j = await e.startJupyter(c.Id, base);
    expect(j).toMatchObject({ State: 'running', Jupyter: true, api_url: base });
    expect(j.LocalPort).toBeGreaterThan(0);
    const target = await e.webTarget(c.Id.slice(0, 12));
    expect(target).toEqual({ host: '127.0.0.1', port: j.LocalPort });
    const res = await fetch(`http://127.0.0.1:${target!.port}${base}api/status`);
    expect(res.status).toBe(200);
    expect((await e.logs(c.Id, 50)).join('\n')).toContain(`${base}lab`);
    await e.stop(c.Id);
    expect(await e.webTarget(c.Id.slice(0, 12))).toBeNull();
    await expect(fetch(`http://127.0.0.1:${target!.port}${base}api/status`)).rejects.toThrow();
    const plain = await e.create({ image: 'edge/python:3.11', envName: 'py', jupyterPort: null, gpu: false });
    await expect(e.startJupyter(plain.Id, base)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('closes every simulated Jupyter on close()', async () => {
    const e = sim();
    const c = await e.create({ image: 'edge/python:3.11', envName: 'py', jupyterPort: 8888, gpu: false });
    const j = await e.startJupyter(c.Id, '/remote/dev-sim/x/');
    await e.close();
    await expect(fetch(`http://127.0.0.1:${j.LocalPort}/remote/dev-sim/x/api/status`)).rejects.toThrow();
    await expect(e.ping()).rejects.toMatchObject({ code: 'engine_unavailable' });
  });
});

describe('humanDuration', () => {
  it('words durations like Docker', () => {
    expect(humanDuration(400)).toBe('Less than a second');
    expect(humanDuration(1_000)).toBe('1 second');
    expect(humanDuration(5_000)).toBe('5 seconds');
    expect(humanDuration(65_000)).toBe('About a minute');
    expect(humanDuration(12 * 60_000)).toBe('12 minutes');
    expect(humanDuration(3_600_000)).toBe('About an hour');
    expect(humanDuration(5 * 86_400_000)).toBe('5 days');
  });
});
