/**
 * The IP cameras manager on model-based paths (xstate/graph over the real machine; issue 16 §2 IP cameras, §7
 * remove-ip-camera): open, load (or fail and retry), open a form, remove (or be refused and keep the list),
 * close; and a saved form closes itself and the list is read again.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import { ipCamerasMachine } from '../../../machines/ipCameras/ipCameras.machine';
import { ipCameraFormMachine } from '../../../machines/ipCameras/ipCameraForm.machine';
import type { ManagedIpCamera } from '../../../src/protocol/ipCameras';
import { createMachineTestModel, flush, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof ipCamerasMachine>;

const camera: ManagedIpCamera = {
  id: 'c1',
  label: 'Door',
  url: 'sim://door',
  device_id: 'dev-1',
  device_label: 'Gate',
  username: null,
  has_password: false,
  group_id: null,
};
const loaded = { cameras: [camera], devices: [{ deviceId: 'dev-1', label: 'Gate' }] };
const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output }) as EventObject;
const fail = (id: string, error: unknown) => ({ type: `xstate.error.actor.${id}`, error }) as EventObject;

function eventsFor(_s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'ipc.edit':
      return [{ type, camera: null }] as unknown as EventObject[];
    case 'ipc.remove':
      return [{ type, id: 'c1' }] as unknown as EventObject[];
    case 'xstate.done.actor.0.ipCameras.open.loading':
      return [done('0.ipCameras.open.loading', loaded)];
    case 'xstate.error.actor.0.ipCameras.open.loading':
      return [fail('0.ipCameras.open.loading', new Error('offline'))];
    case 'xstate.done.actor.0.ipCameras.open.removing':
      return [done('0.ipCameras.open.removing', undefined)];
    case 'xstate.error.actor.0.ipCameras.open.removing':
      return [fail('0.ipCameras.open.removing', new Error('IP camera not found.'))];
    default:
      return undefined;
  }
}

const key = (s: Snap) => JSON.stringify([s.value, s.context.error, s.context.removeError, !!s.context.form]);

describe('IP cameras manager (model-based paths)', () => {
  it('follows every modelled path on the real machine', async () => {
    const paths = createMachineTestModel(ipCamerasMachine, { events: eventsFor, key }).getShortestPaths({
      allowDuplicatePaths: true,
    });
    const start = (driver: Driver) =>
      createActor(
        ipCamerasMachine.provide({
          actors: {
            loadCameras: driver.promise('0.ipCameras.open.loading'),
            removeCamera: driver.promise('0.ipCameras.open.removing'),
          },
        }),
      ).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    expect(ends.some((s) => s.matches({ open: 'failed' }) && s.context.error === 'offline')).toBe(true);
    expect(
      ends.some((s) => s.matches({ open: 'ready' }) && s.context.removeError === 'IP camera not found.'),
    ).toBe(true);
    expect(ends.some((s) => s.matches({ open: 'ready' }) && s.context.form !== null)).toBe(true);
  });

  it('a saved form closes and the list is read again', async () => {
    let loads = 0;
    const actor = createActor(
      ipCamerasMachine.provide({
        actors: {
          loadCameras: fromPromise(async () => {
            loads++;
            return loaded;
          }),
          ipCameraForm: ipCameraFormMachine.provide({
            actors: { saveCamera: fromPromise(async () => camera) },
          }),
        },
      }),
    ).start();
    actor.send({ type: 'ipc.open' });
    await flush();
    actor.send({ type: 'ipc.edit', camera });
    const form = actor.getSnapshot().context.form!;
    expect(form).toBeTruthy();
    expect(form.getSnapshot().context.draft.label).toBe('Door');
    actor.send({ type: 'ipc.closeForm' });
    expect(actor.getSnapshot().context.form).toBeNull();
    expect(loads).toBe(1);
    actor.send({ type: 'ipc.edit', camera });
    actor.getSnapshot().context.form!.send({ type: 'form.save' });
    await flush();
    expect(actor.getSnapshot().context.form).toBeNull();
    expect(actor.getSnapshot().context.changes).toBe(1);
    expect(loads).toBe(2);
    actor.send({ type: 'ipc.close' });
    expect(actor.getSnapshot().value).toBe('closed');
  });
});
