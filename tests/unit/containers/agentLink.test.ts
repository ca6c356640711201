/**
 * The container commands on a real agent over loopback (PeerJS server, sim agent, wrtc data channels): the
 * engine and the process tracker wired in startAgent, progress messages and events on the link, events to
 * every link of the device, RunningAgent.webTarget, and the simulated Jupyter closed with the agent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONTAINER_EVENTS,
  Container,
  DownloadProgress,
  remoteBasePath,
} from '../../../src/protocol/containers';
import { startLoopback } from '../agent/loopback';
import type { Loopback, TestLink } from '../agent/loopback';

const PORT = 18_260 + Math.floor(Math.random() * 30);
const DEVICE = 'dev-containers0011';

describe('container commands on a running sim agent', () => {
  let loop: Loopback;
  let a: TestLink;
  let b: TestLink;

  beforeAll(async () => {
    loop = await startLoopback(PORT, DEVICE, { containerTimeScale: 0.05 });
    const [pa, pb] = await Promise.all([loop.browser('web-containers-a'), loop.browser('web-containers-b')]);
    [a, b] = await Promise.all([loop.greeted(pa, 'web-containers-a'), loop.greeted(pb, 'web-containers-b')]);
  }, 30_000);

  afterAll(async () => {
    await loop?.close();
  });

  it('downloads with progress on the link, creates, starts Jupyter and tells every link', async () => {
    const image = 'edge/jupyter-tensorflow:2.16';
    const downloaded = await a.call('download-docker-image', { image, envName: 'tf' });
    expect(downloaded).toMatchObject({ ok: true, data: { status: 'downloaded' } });
    const progress = a.messages.filter((m) => m.type === 'progress' && m.process === 'download-docker-image');
    expect(progress.length).toBeGreaterThan(0);
    expect(DownloadProgress.parse(progress[progress.length - 1]!.data).percent).toBe(100);
    // The other link saw the Docker process too, but no progress of a request it did not make.
    await b.next((m) => m.type === 'event' && m.name === CONTAINER_EVENTS.process, 'docker.process');
    expect(b.messages.some((m) => m.type === 'progress')).toBe(false);

    const created = await a.call('docker-create', { image, envName: 'tf', jupyter_port: 8888, gpu: true });
    expect(created.ok).toBe(true);
    const container = Container.parse((created as { data: { container: unknown } }).data.container);
    expect(container).toMatchObject({
      deviceId: DEVICE,
      deviceName: 'Test device',
      State: 'created',
      Gpu: true,
    });
    await b.next(
      (m) =>
        m.type === 'event' &&
        m.name === CONTAINER_EVENTS.changed &&
        (m.data as { containers: Container[] }).containers.some((c) => c.Id === container.Id),
      'containers.changed',
    );

    const jupyter = await a.call('start-jupyter', { id: container.Id.slice(0, 12) });
    expect(jupyter).toMatchObject({ ok: true, data: { container: { State: 'running', Jupyter: true } } });
    const target = await loop.agent.webTarget(container.Id.slice(0, 12));
    expect(target).not.toBeNull();
    const base = remoteBasePath(DEVICE, container.Id);
    const page = await fetch(`http://${target!.host}:${target!.port}${base}`);
    expect(await page.text()).toContain('Simulated JupyterLab — sim backend');
    expect(await loop.agent.webTarget('ffffffffffff')).toBeNull();
  });

  it('answers getContainers and docker-processes', async () => {
    const list = await b.call('getContainers', {});
    expect(list).toMatchObject({ ok: true });
    expect((list as { data: { containers: unknown[] } }).data.containers).toHaveLength(1);
    const processes = await b.call('docker-processes', {});
    expect(
      (processes as { data: { processes: { action: string }[] } }).data.processes.map((p) => p.action),
    ).toEqual(['download', 'create', 'start']);
  });
});
