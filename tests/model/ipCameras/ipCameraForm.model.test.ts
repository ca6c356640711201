/**
 * The IP camera form on model-based paths (xstate/graph over the real machine; issue 16 §2 IP cameras, §5):
 * invalid drafts stay in editing with field errors, a valid draft is tested through the device (still shown, or
 * a coded error), saved (POST/PUT body with the password kept, replaced or removed) or refused and kept.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import {
  ipCameraFormMachine,
  validateIpCamera,
  type IpCameraFormInput,
  type SaveCameraInput,
} from '../../../machines/ipCameras/ipCameraForm.machine';
import type { ManagedIpCamera } from '../../../src/protocol/ipCameras';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof ipCameraFormMachine>;

const coded = (code: string, message: string) => Object.assign(new Error(message), { code });
const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output }) as EventObject;
const fail = (id: string, error: unknown) => ({ type: `xstate.error.actor.${id}`, error }) as EventObject;

const camera: ManagedIpCamera = {
  id: 'c1',
  label: 'Door',
  url: 'sim://door',
  device_id: 'dev-1',
  device_label: 'Gate',
  username: 'admin',
  has_password: true,
  group_id: null,
};
const still = { image: 'data:image/png;base64,AAAA', width: 320, height: 240 };

function eventsFor(_s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'form.change':
      return [
        { type, patch: { label: '', url: 'ftp://x' } },
        { type, patch: { label: 'Gate cam', url: 'sim://gate', deviceId: 'dev-1' } },
      ] as unknown as EventObject[];
    case 'xstate.done.actor.testStill':
      return [done('testStill', still)];
    case 'xstate.error.actor.testStill':
      return [
        fail('testStill', coded('ip_camera_auth_failed', 'The camera refused the user name or password.')),
      ];
    case 'xstate.done.actor.saveCamera':
      return [done('saveCamera', { ...camera, label: 'Gate cam' })];
    case 'xstate.error.actor.saveCamera':
      return [fail('saveCamera', coded('Ip_camera_exists', 'An IP camera with this name already exists.'))];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.draft.label,
    Object.keys(s.context.errors),
    !!s.context.still,
    s.context.testError?.code ?? null,
    s.context.saveError?.code ?? null,
  ]);

function pathsFor(input: IpCameraFormInput) {
  return createMachineTestModel(ipCameraFormMachine, { events: eventsFor, key, input }).getShortestPaths({
    allowDuplicatePaths: true,
  });
}

const start = (input: IpCameraFormInput) => (driver: Driver) =>
  createActor(
    ipCameraFormMachine.provide({
      actors: { testStill: driver.promise('testStill'), saveCamera: driver.promise('saveCamera') },
    }),
    { input },
  ).start();

describe('IP camera form (model-based paths)', () => {
  for (const [name, input] of [
    ['adding', { camera: null, deviceId: 'dev-1' }],
    ['editing', { camera }],
  ] as const) {
    it(`${name}: follows every modelled path on the real machine`, async () => {
      const paths = pathsFor(input);
      const steps = await runPaths(paths, start(input), key);
      expect(steps).toBeGreaterThan(paths.length);
      const ends = paths.map((p) => p.state);
      expect(ends.some((s) => s.matches('saved') && s.output?.camera?.label === 'Gate cam')).toBe(true);
      expect(ends.some((s) => s.matches('editing') && s.context.still?.width === 320)).toBe(true);
      expect(
        ends.some((s) => s.matches('editing') && s.context.testError?.code === 'ip_camera_auth_failed'),
      ).toBe(true);
      expect(ends.some((s) => s.matches('editing') && s.context.saveError?.code === 'Ip_camera_exists')).toBe(
        true,
      );
      expect(ends.some((s) => s.matches('editing') && s.context.errors.url === 'urlInvalid')).toBe(true);
      // An invalid draft never reaches the device or the server.
      for (const p of paths) {
        for (const st of p.steps) {
          if (st.state.matches('testing') || st.state.matches('saving')) {
            expect(validateIpCamera(st.state.context.draft)).toEqual({});
          }
        }
      }
    });
  }

  it('sends the password as typed, keeps it (editing, empty field) or removes it', async () => {
    const bodyOf = async (input: IpCameraFormInput, patch: Record<string, unknown>) => {
      let got: SaveCameraInput | null = null;
      const actor = createActor(
        ipCameraFormMachine.provide({
          actors: {
            saveCamera: fromPromise<ManagedIpCamera, SaveCameraInput>(async ({ input: i }) => {
              got = i;
              return camera;
            }),
          },
        }),
        { input },
      ).start();
      actor.send({ type: 'form.change', patch });
      actor.send({ type: 'form.save' });
      await new Promise((r) => setImmediate(r));
      expect(actor.getSnapshot().status).toBe('done');
      return got as unknown as SaveCameraInput;
    };
    expect((await bodyOf({ camera }, {})).body).not.toHaveProperty('password');
    expect((await bodyOf({ camera }, { password: 'new' })).body.password).toBe('new');
    expect((await bodyOf({ camera }, { clearPassword: true })).body.password).toBeNull();
    const added = await bodyOf({ camera: null }, { label: 'A', url: 'sim://a', deviceId: 'dev-1' });
    expect(added).toMatchObject({ cameraId: null, body: { label: 'A', device_id: 'dev-1', password: null } });
  });
});
