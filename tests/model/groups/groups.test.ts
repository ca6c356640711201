/**
 * The groups machine (machines/groups/groups.machine.ts; issue 16 §7 groups), model-based: loading both trees
 * (and failing, then retrying), a saved change (reload, revision + 1, members and the camera filter reloaded), a
 * refused change (the server's code kept, nothing reloaded), the member list per type, and the camera filter
 * on, failed and off; every path followed on the real machine.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import {
  groupsMachine,
  type CameraFilterMembers,
  type GroupChange,
  type GroupMember,
} from '../../../machines/groups/groups.machine';
import type { Group } from '../../../src/protocol/devices';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof groupsMachine>;
const site: Group = { id: 'g1', name: 'Site A', group_type: 'device', children: [] };
const gate: GroupMember = {
  kind: 'device',
  id: 'd1',
  label: 'Gate',
  deviceId: null,
  cameraId: null,
  groupId: null,
};
const create: GroupChange = { op: 'create', groupType: 'device', name: 'Site A', parentId: null };

function events(_s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'xstate.done.actor.loadTrees':
      return [{ type, output: { device: [site], camera: [] } }] as unknown as EventObject[];
    case 'xstate.error.actor.loadTrees':
      return [{ type, error: { code: 'Error', message: 'offline' } }] as unknown as EventObject[];
    case 'groups.change':
      return [{ type, change: create }] as unknown as EventObject[];
    case 'xstate.done.actor.change':
      return [{ type, output: undefined }] as unknown as EventObject[];
    case 'xstate.error.actor.change':
      return [
        { type, error: { code: 'Conflict', message: 'A group with this name already exists.' } },
      ] as unknown as EventObject[];
    case 'groups.members':
      return [{ type, groupType: 'device' }] as unknown as EventObject[];
    case 'xstate.done.actor.loadMembers':
      return [{ type, output: [gate] }] as unknown as EventObject[];
    case 'groups.cameraFilter':
      return [
        { type, groupId: 'c1' },
        { type, groupId: null },
      ] as unknown as EventObject[];
    case 'xstate.done.actor.loadCameraFilter':
      return [
        { type, output: { physical: ['dev/cam-1'], ip: [] } satisfies CameraFilterMembers },
      ] as unknown as EventObject[];
    case 'groups.refreshLists':
      return [];
    default:
      return undefined;
  }
}
const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.device.length,
    s.context.error?.code ?? null,
    s.context.revision > 0,
    s.context.notice,
    s.context.members.length,
    s.context.cameraFilter.groupId,
    s.context.cameraFilter.members.physical.length,
  ]);

describe('groups (model-based paths)', () => {
  const paths = createMachineTestModel(groupsMachine, { events, key }).getShortestPaths({
    allowDuplicatePaths: true,
  });

  it('reaches a saved change, a refused one, a failed load, the member list and the camera filter', () => {
    const ends = paths.map((p) => p.state);
    expect(ends.some((s) => s.matches({ tree: 'failed' }) && s.context.error?.code === 'Error')).toBe(true);
    expect(ends.some((s) => s.matches({ tree: 'ready' }) && s.context.error?.code === 'Conflict')).toBe(true);
    expect(ends.some((s) => s.context.revision === 1 && s.context.notice === 'create')).toBe(true);
    expect(ends.some((s) => s.matches({ members: 'ready' }) && s.context.members.length === 1)).toBe(true);
    expect(
      ends.some(
        (s) => s.matches({ cameraFilter: 'on' }) && s.context.cameraFilter.members.physical.length === 1,
      ),
    ).toBe(true);
  });

  it('follows every modelled path on the real machine', async () => {
    const start = (driver: Driver) =>
      createActor(
        groupsMachine.provide({
          actors: {
            loadTrees: driver.promise('loadTrees'),
            change: driver.promise('change'),
            loadMembers: driver.promise('loadMembers'),
            loadCameraFilter: driver.promise('loadCameraFilter'),
          },
        }),
      ).start();
    expect(await runPaths(paths, start, key)).toBeGreaterThan(paths.length);
  }, 120_000);

  it('a saved change reloads the trees, the member list and the camera filter', async () => {
    const loads: string[] = [];
    const actor = createActor(
      groupsMachine.provide({
        actors: {
          loadTrees: fromPromise<{ device: Group[]; camera: Group[] }>(async () => {
            loads.push('trees');
            return { device: [site], camera: [] };
          }),
          change: fromPromise<void, GroupChange>(async () => undefined),
          loadMembers: fromPromise<GroupMember[], { groupType: 'device' | 'camera' }>(async () => {
            loads.push('members');
            return [gate];
          }),
          loadCameraFilter: fromPromise<CameraFilterMembers, { groupId: string }>(async () => {
            loads.push('filter');
            return { physical: [], ip: ['ip1'] };
          }),
        },
      }),
    ).start();
    const settle = () => new Promise((r) => setTimeout(r, 0));
    await settle();
    actor.send({ type: 'groups.members', groupType: 'device' });
    actor.send({ type: 'groups.cameraFilter', groupId: 'c1' });
    await settle();
    await settle();
    expect(actor.getSnapshot().value).toEqual({ tree: 'ready', members: 'ready', cameraFilter: 'on' });
    loads.length = 0;
    actor.send({ type: 'groups.change', change: { op: 'rename', id: 'g1', name: 'Site B' } });
    await settle();
    await settle();
    expect(loads.sort()).toEqual(['filter', 'members', 'trees']);
    expect(actor.getSnapshot().context.revision).toBe(1);
    expect(actor.getSnapshot().context.notice).toBe('rename');
    // Sign-out forgets what the next user must not see.
    actor.send({ type: 'groups.clear' });
    expect(actor.getSnapshot().context).toMatchObject({
      device: [],
      members: [],
      cameraFilter: { groupId: null, members: { physical: [], ip: [] } },
    });
    actor.stop();
  });
});
