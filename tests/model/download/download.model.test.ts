/**
 * The download machine on model-based paths (§2 /download; §8 "Generated!"): the info loads or fails and is
 * retried; a device is created only with a name (an empty one stays ready with `invalid`), the created
 * device's commands are kept until "another", a refused create keeps the server's error.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import {
  downloadMachine,
  type CreatedDevice,
  type DownloadInfo,
} from '../../../machines/download/download.machine';
import type { ConsoleEmitted } from '../../../machines/notifications/emitted';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof downloadMachine>;

const info: DownloadInfo = {
  release: null,
  server: 'http://127.0.0.1:8080',
  install_script: 'http://127.0.0.1:8080/api/download/install.sh',
};
const created: CreatedDevice = {
  device: { id: 'r1', device_id: 'dev-0011223344556677', label: 'Gate', kind: 'x86' },
  access_token: 'tok',
  expires_in: 5_184_000,
  commands: { curl: 'curl … | AGENT_TOKEN=tok sh', npm: 'AGENT_TOKEN=tok npm run agent' },
};

function eventsFor(_s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'device.create':
      return [
        { type, label: 'Gate', kind: 'x86' },
        { type, label: '  ', kind: 'jetson' },
      ] as unknown as EventObject[];
    case 'xstate.done.actor.loadInfo':
      return [{ type, output: info }] as unknown as EventObject[];
    case 'xstate.error.actor.loadInfo':
      return [{ type, error: new Error('Servers are unavailable.') }] as unknown as EventObject[];
    case 'xstate.done.actor.createDevice':
      return [{ type, output: created }] as unknown as EventObject[];
    case 'xstate.error.actor.createDevice':
      return [
        { type, error: new Error('You already have a device with this name.') },
      ] as unknown as EventObject[];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    !!s.context.info,
    s.context.created?.device.label ?? null,
    s.context.error,
    s.context.invalid,
  ]);

describe('download machine (model-based paths)', () => {
  it('follows every modelled path on the real machine', async () => {
    const paths = createMachineTestModel(downloadMachine, { events: eventsFor, key }).getShortestPaths({
      allowDuplicatePaths: true,
    });
    const start = (driver: Driver) =>
      createActor(
        downloadMachine.provide({
          actors: { loadInfo: driver.promise('loadInfo'), createDevice: driver.promise('createDevice') },
        }),
      ).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    for (const st of ['idle', 'loading', 'failed', 'ready', 'creating', 'created'] as const)
      expect(ends.some((s) => s.matches(st))).toBe(true);
    expect(ends.some((s) => s.matches('ready') && s.context.invalid)).toBe(true);
    expect(ends.some((s) => s.matches('ready') && s.context.error?.includes('already'))).toBe(true);
  });

  it('sends the trimmed name and kind, and toasts "Generated!"', async () => {
    let sent: unknown = null;
    const notices: ConsoleEmitted[] = [];
    const actor = createActor(
      downloadMachine.provide({
        actors: {
          loadInfo: fromPromise(async () => info),
          createDevice: fromPromise(async ({ input }: { input: { label: string; kind: string } }) => {
            sent = input;
            return created;
          }) as never,
        },
      }),
    ).start();
    actor.on('notice', (e) => notices.push(e));
    actor.send({ type: 'download.load' });
    await new Promise((r) => setImmediate(r));
    actor.send({ type: 'device.create', label: ' Gate ', kind: 'jetson' });
    await new Promise((r) => setImmediate(r));
    expect(sent).toEqual({ label: 'Gate', kind: 'jetson' });
    expect(actor.getSnapshot().value).toBe('created');
    expect(notices).toMatchObject([{ type: 'notice', title: 'Generated!', variant: 'success' }]);
    actor.send({ type: 'device.another' });
    expect(actor.getSnapshot().context.created).toBeNull();
  });
});
