import { afterEach, describe, expect, it } from 'vitest';
import { handlers } from '../../../src/agent/commands';
import type { CommandContext } from '../../../src/agent/commands';
import { createDockerEngine } from '../../../src/agent/containers/docker';
import type { ContainerEngine } from '../../../src/agent/containers/engine';
import { ProcessTracker } from '../../../src/agent/containers/processes';
import { createSimEngine } from '../../../src/agent/containers/sim';
import { dispatchRequest } from '../../../src/agent/link/dispatcher';
import { silentLogger } from '../../../src/agent/log';
import {
  CONTAINER_EVENTS,
  Container,
  DockerProcess,
  DownloadProgress,
  remoteBasePath,
} from '../../../src/protocol/containers';
import type { ProgressMessage, ReplyMessage } from '../../../src/protocol';

interface Harness {
  ctx: CommandContext;
  events: { name: string; data: unknown; at: number }[];
  tracker: ProcessTracker;
  engine: ContainerEngine;
}
const open: Harness[] = [];

function harness(engine?: ContainerEngine): Harness {
  const e =
    engine ??
    createSimEngine({ deviceId: 'dev-1', deviceName: 'Sim', kind: 'x86', hasGpu: true, timeScale: 0.05 });
  const events: Harness['events'] = [];
  const broadcast = (name: string, data: unknown) => events.push({ name, data, at: Date.now() });
  const tracker = new ProcessTracker({ device: 'dev-1', engine: e, broadcast });
  // Only the parts the container handlers read; the others are never touched by them.
  const ctx = {
    deviceId: 'dev-1',
    browserId: 'browser-1',
    linkId: 'link-1',
    startedAt: Date.now(),
    version: 'test',
    containers: e,
    dockerProcesses: tracker,
    broadcast,
  } as Partial<CommandContext> as CommandContext;
  const h = { ctx, events, tracker, engine: e };
  open.push(h);
  return h;
}
afterEach(async () => {
  for (const h of open.splice(0)) {
    h.tracker.close();
    await h.engine.close();
  }
});

let requestCounter = 0;
/** Sends one request through the dispatcher; collects its progress messages with their arrival time. */
async function call(h: Harness, process: string, payload: unknown) {
  const progress: { message: ProgressMessage; at: number }[] = [];
  const reply = await dispatchRequest(
    { type: 'request', process, requestId: `r${++requestCounter}`, payload },
    handlers,
    h.ctx,
    silentLogger,
    (message) => progress.push({ message, at: Date.now() }),
  );
  return { reply, progress };
}
const ok = (reply: ReplyMessage) => {
  if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
  return reply.data as Record<string, unknown>;
};

describe('container commands through dispatchRequest', () => {
  it('checks, downloads with throttled progress, and checks again', async () => {
    const h = harness();
    const image = 'edge/jupyter-tensorflow:2.16';
    expect(ok((await call(h, 'check-docker-image', { image })).reply)).toEqual({
      status: 404,
      message: `No such image: ${image}`,
      image: null,
    });
    const { reply, progress } = await call(h, 'download-docker-image', { image, envName: 'tf' });
    expect(ok(reply)).toMatchObject({ image, status: 'downloaded', image_info: { RepoTags: [image] } });
    expect(progress.length).toBeGreaterThan(2);
    const percents = progress.map((p) => DownloadProgress.parse(p.message.data).percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents[percents.length - 1]).toBe(100);
    // ≤ 10 per second: consecutive messages (but the last, sent at the answer) are ≥ 100 ms apart.
    for (let i = 1; i < progress.length - 1; i++) {
      expect(progress[i]!.at - progress[i - 1]!.at).toBeGreaterThanOrEqual(95);
    }
    expect(ok((await call(h, 'check-docker-image', { image })).reply)).toMatchObject({
      status: 200,
      message: '',
    });
    expect(ok((await call(h, 'docker-image', {})).reply).images).toHaveLength(2);

    const processEvents = h.events
      .filter((e) => e.name === CONTAINER_EVENTS.process)
      .map((e) => DockerProcess.parse(e.data));
    expect(processEvents[0]).toMatchObject({
      action: 'download',
      docker: image,
      envName: 'tf',
      percent: 0,
      ended: null,
    });
    expect(processEvents[processEvents.length - 1]).toMatchObject({
      percent: 100,
      error: null,
      device: 'dev-1',
    });
    expect(processEvents[processEvents.length - 1]!.ended).not.toBeNull();
    const listed = ok((await call(h, 'docker-processes', {})).reply).processes as DockerProcess[];
    expect(listed).toHaveLength(1);
  });

  it('joins a second download request of the same image to the running one', async () => {
    const h = harness();
    const image = 'edge/jupyter-pytorch:2.3-x86';
    const first = call(h, 'download-docker-image', { image, envName: 'torch' });
    await new Promise((r) => setTimeout(r, 60));
    const second = call(h, 'download-docker-image', { image, envName: 'torch' });
    const [a, b] = await Promise.all([first, second]);
    expect(ok(a.reply)).toMatchObject({ status: 'downloaded' });
    expect(ok(b.reply)).toMatchObject({ status: 'downloaded' });
    expect(b.progress.length).toBeGreaterThan(0);
    expect(DownloadProgress.parse(b.progress[b.progress.length - 1]!.message.data).percent).toBe(100);
    const processes = ok((await call(h, 'docker-processes', {})).reply).processes as DockerProcess[];
    expect(processes.filter((p) => p.action === 'download')).toHaveLength(1);
  });

  it('refuses a second action on the same environment with busy / Ongoing Process', async () => {
    const h = harness();
    const payload = { image: 'edge/python:3.11', envName: 'py', jupyter_port: null };
    const [a, b] = await Promise.all([call(h, 'docker-create', payload), call(h, 'docker-create', payload)]);
    expect(a.reply.ok).toBe(true);
    expect(b.reply).toMatchObject({ ok: false, error: { code: 'busy', message: 'Ongoing Process' } });
    // Another environment is not held up.
    const other = await call(h, 'docker-create', { ...payload, envName: 'py-2' });
    expect(other.reply.ok).toBe(true);
  });

  it('cancels a download: the request fails canceled and the process says so', async () => {
    const h = harness();
    const image = 'edge/jupyter-pytorch:2.3-x86';
    const download = call(h, 'download-docker-image', { image });
    await new Promise((r) => setTimeout(r, 50));
    expect(ok((await call(h, 'cancel-docker-download', { image })).reply)).toEqual({ canceled: true });
    const { reply } = await download;
    expect(reply).toMatchObject({
      ok: false,
      error: { code: 'canceled', message: 'Process has been canceled' },
    });
    const [p] = ok((await call(h, 'docker-processes', {})).reply).processes as DockerProcess[];
    expect(p).toMatchObject({ action: 'download', error: 'Process has been canceled' });
    expect(ok((await call(h, 'cancel-docker-download', { image })).reply)).toEqual({ canceled: false });
    expect(ok((await call(h, 'check-docker-image', { image })).reply)).toMatchObject({ status: 404 });
  });

  it('fails an unknown image download as not_found', async () => {
    const h = harness();
    const { reply } = await call(h, 'download-docker-image', { image: 'edge/nope:1' });
    expect(reply).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('runs a container through create, start, start-jupyter, logs, stop and remove; pushes changes', async () => {
    const h = harness();
    const image = 'edge/jupyter-tensorflow:2.16';
    ok((await call(h, 'download-docker-image', { image, envName: 'tf' })).reply);
    const created = Container.parse(
      ok((await call(h, 'docker-create', { image, envName: 'tf', jupyter_port: 8888, gpu: true })).reply)
        .container,
    );
    expect(created).toMatchObject({ State: 'created', EnvName: 'tf', Gpu: true, deviceId: 'dev-1' });
    const id = created.Id.slice(0, 12);
    expect(ok((await call(h, 'docker-start', { id })).reply).container).toMatchObject({ State: 'running' });
    const withJupyter = Container.parse(ok((await call(h, 'start-jupyter', { id })).reply).container);
    expect(withJupyter).toMatchObject({ Jupyter: true, api_url: remoteBasePath('dev-1', created.Id) });
    const listed = ok((await call(h, 'getContainers', {})).reply).containers as Container[];
    expect(listed.map((c) => [c.Id, c.State, c.Jupyter])).toEqual([[created.Id, 'running', true]]);
    const lines = ok((await call(h, 'docker-logs', { id, tail: 3 })).reply).lines as string[];
    expect(lines).toHaveLength(3);
    expect(ok((await call(h, 'docker-stop', { id })).reply).container).toMatchObject({
      State: 'exited',
      Jupyter: false,
    });
    expect(ok((await call(h, 'docker-remove', { id })).reply)).toEqual({ removed: true, id: created.Id });
    await h.tracker.refreshContainers();

    const changes = h.events
      .filter((e) => e.name === CONTAINER_EVENTS.changed)
      .map((e) =>
        (e.data as { containers: Container[] }).containers.map((c) => `${c.State}:${c.Jupyter}`).join(),
      );
    expect(changes).toEqual(['created:false', 'running:false', 'running:true', 'exited:false', '']);
    const actions = (ok((await call(h, 'docker-processes', {})).reply).processes as DockerProcess[]).map(
      (p) => `${p.action}:${p.error === null}`,
    );
    expect(actions).toEqual([
      'download:true',
      'create:true',
      'start:true',
      'start:true',
      'stop:true',
      'remove:true',
    ]);
  });

  it('answers a create without the image with Environment not found', async () => {
    const h = harness();
    const { reply } = await call(h, 'docker-create', {
      image: 'edge/jupyter-pytorch:2.3-x86',
      envName: 'torch',
    });
    expect(reply).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: expect.stringMatching(/^Environment not found/) },
    });
    const [p] = ok((await call(h, 'docker-processes', {})).reply).processes as DockerProcess[];
    expect(p).toMatchObject({ action: 'create', error: expect.stringMatching(/^Container action failed/) });
  });

  it('answers hostile payloads with error replies, never throwing', async () => {
    const h = harness();
    const bad = 'invalid_payload';
    const cases: [string, unknown, string][] = [
      ['check-docker-image', { image: '../../etc/passwd' }, bad],
      ['check-docker-image', { image: 'a:b:c' }, bad],
      ['check-docker-image', { image: 'EDGE/Python:3' }, bad],
      ['check-docker-image', {}, bad],
      ['download-docker-image', { image: 'edge/python:3.11', envName: 'Bad Alias' }, bad],
      ['download-docker-image', { image: `${'a'.repeat(400)}:1` }, bad],
      ['cancel-docker-download', { image: 42 }, bad],
      ['docker-create', { image: 'edge/python:3.11', envName: 'py', name: '../escape' }, bad],
      ['docker-create', { image: 'edge/python:3.11', envName: 'py', jupyter_port: 70_000 }, bad],
      ['docker-create', { image: 'edge/python:3.11', envName: 'py', gpu: 'yes' }, bad],
      ['docker-create', { image: 'edge/python:3.11', envName: '' }, bad],
      ['docker-start', { id: '' }, bad],
      ['docker-start', { id: 'no-such-container' }, 'not_found'],
      ['docker-stop', { id: 'x'.repeat(100_000) }, bad],
      ['docker-remove', { id: ['array'] }, bad],
      ['start-jupyter', { id: '0123456789ab' }, 'not_found'],
      ['docker-logs', { id: 'abc', tail: -1 }, bad],
      ['docker-logs', { id: 'abc', tail: 1e9 }, bad],
      ['docker-logs', { id: 'nope' }, 'not_found'],
      ['getContainers', { extra: true }, bad],
      ['docker-processes', 'not an object', bad],
      // Unknown keys (even __proto__) are dropped by the schema: the create runs.
      [
        'docker-create',
        JSON.parse('{"__proto__":{"polluted":true},"image":"edge/python:3.11","envName":"py"}'),
        'ok',
      ],
    ];
    for (const [process, payload, expected] of cases) {
      const { reply } = await call(h, process, payload);
      const label = `${process} ${JSON.stringify(payload).slice(0, 80)}`;
      expect(reply.ok ? 'ok' : reply.error.code, label).toBe(expected);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers 503 / engine_unavailable when no Docker engine is reachable', async () => {
    const h = harness(
      createDockerEngine({
        deviceId: 'dev-1',
        deviceName: 'X',
        socketPath: '/nonexistent/docker.sock',
        gpu: null,
      }),
    );
    expect(ok((await call(h, 'check-docker-image', { image: 'edge/python:3.11' })).reply)).toEqual({
      status: 503,
      message: 'No Docker engine is reachable at /nonexistent/docker.sock: connect ENOENT',
      image: null,
    });
    for (const [process, payload] of [
      ['getContainers', {}],
      ['docker-image', {}],
      ['docker-start', { id: 'abc' }],
      ['download-docker-image', { image: 'edge/python:3.11' }],
    ] as const) {
      const { reply } = await call(h, process, payload);
      expect(reply).toMatchObject({ ok: false, error: { code: 'engine_unavailable' } });
    }
  });
});
