/**
 * The caller's device and camera groups (issue 16 §2 groups; §3 Group; §7 groups; §8 "Group retrieval failure
 * warnings"; src/protocol/groups.ts). One long-lived actor (systemId 'groups'), three parallel regions:
 *
 * - `tree`: `loading` (both trees, actor `loadTrees`) → `ready` | `failed` (`groups.reload` retries).
 *   In `ready`, `groups.change` { change } (create, rename, move, delete, assign) → `saving` (actor `change`) →
 *   `loading` again, `revision` + 1 and `notice` set; a refused change goes back to `ready` with `error`
 *   { code, message } (the server's code: Conflict for a duplicate name or a cycle, Not_found, …).
 * - `members`: what can be assigned, for the manager: `groups.members` { groupType } → `loading` (actor
 *   `loadMembers`) → `ready` | `failed`; reloaded after every saved change.
 * - `cameraFilter`: the camera list's group filter: `groups.cameraFilter` { groupId } — null → `off`; else
 *   `loading` (actor `loadCameraFilter`: the members of the group and its descendants) → `on` | `failed`;
 *   reloaded after every saved change.
 *
 * `groups.dismiss` forgets the error and the notice; `groups.clear` (sign-out) forgets everything shown.
 *
 * Pure: no fetch here; the console provides the actors (src/console/features/groups/actors.ts).
 */
import { assign, fromPromise, raise, setup } from 'xstate';
import type { Group } from '../../src/protocol/devices';

export type GroupType = 'camera' | 'device';

/** One change the user asks for (each is one route of src/protocol/groups.ts). */
export type GroupChange =
  | { op: 'create'; groupType: GroupType; name: string; parentId: string | null }
  | { op: 'rename'; id: string; name: string }
  | { op: 'move'; id: string; parentId: string | null }
  | { op: 'delete'; id: string }
  | {
      op: 'assign';
      groupType: GroupType;
      groupId: string | null;
      devices?: string[];
      physicalCameras?: string[];
      ipCameras?: string[];
    };

/** Something that can be put into a group. kind: device (row id), physical or IP camera (row ids). */
export interface GroupMember {
  kind: 'device' | 'physical' | 'ip';
  id: string;
  label: string;
  /** For a physical camera: the device_id it belongs to (null otherwise). */
  deviceId: string | null;
  /** For a physical camera: the camera id its device reports. */
  cameraId: string | null;
  groupId: string | null;
}

/** Members of the filtered camera group: `${device_id}/${camera_id}` of physical cameras, ids of IP cameras. */
export interface CameraFilterMembers {
  physical: string[];
  ip: string[];
}

export interface GroupError {
  code: string;
  message: string;
}

export interface GroupsContext {
  device: Group[];
  camera: Group[];
  error: GroupError | null;
  /** The last saved change (for a status line), null until one is saved. */
  notice: GroupChange['op'] | null;
  /** + 1 on every saved change (lists showing group members reload on it). */
  revision: number;
  /** The change being saved. */
  pending: GroupChange | null;
  membersType: GroupType | null;
  members: GroupMember[];
  cameraFilter: { groupId: string | null; members: CameraFilterMembers };
}

export type GroupsEvent =
  | { type: 'groups.reload' }
  | { type: 'groups.change'; change: GroupChange }
  | { type: 'groups.dismiss' }
  /** Sign-out: forget the trees, the members and the camera filter (sign-in sends `groups.reload`). */
  | { type: 'groups.clear' }
  | { type: 'groups.members'; groupType: GroupType }
  | { type: 'groups.cameraFilter'; groupId: string | null }
  /** Internal: raised after a saved change so the member list and the camera filter reload. */
  | { type: 'groups.refreshLists' };

const errorOf = (e: unknown): GroupError => {
  const err = e as { code?: unknown; message?: unknown };
  return {
    code: typeof err?.code === 'string' ? err.code : 'Error',
    message: typeof err?.message === 'string' ? err.message : String(e),
  };
};
const emptyFilter: CameraFilterMembers = { physical: [], ip: [] };

export const groupsMachine = setup({
  types: { context: {} as GroupsContext, events: {} as GroupsEvent },
  actors: {
    /** GET groups?group_type=device and =camera. */
    loadTrees: fromPromise<{ device: Group[]; camera: Group[] }>(async () => {
      throw new Error("groups: actor 'loadTrees' is not provided");
    }),
    /** One of POST groups, PUT groups/:id, DELETE groups/:id, POST groups/assign. */
    change: fromPromise<void, GroupChange>(async () => {
      throw new Error("groups: actor 'change' is not provided");
    }),
    /** Devices (group_type device) or physical and IP cameras (camera) that can be assigned. */
    loadMembers: fromPromise<GroupMember[], { groupType: GroupType }>(async () => {
      throw new Error("groups: actor 'loadMembers' is not provided");
    }),
    /** physical-cameras and ip-cameras ?group_id. */
    loadCameraFilter: fromPromise<CameraFilterMembers, { groupId: string }>(async () => {
      throw new Error("groups: actor 'loadCameraFilter' is not provided");
    }),
  },
  actions: {
    setMembersType: assign({
      membersType: ({ event, context }) =>
        event.type === 'groups.members' ? event.groupType : context.membersType,
    }),
    setCameraFilter: assign({
      cameraFilter: ({ event, context }) =>
        event.type === 'groups.cameraFilter'
          ? { groupId: event.groupId, members: emptyFilter }
          : context.cameraFilter,
    }),
    clearCameraFilter: assign({ cameraFilter: { groupId: null, members: emptyFilter } }),
  },
  guards: {
    filterCleared: ({ event }) => event.type === 'groups.cameraFilter' && event.groupId === null,
    hasMembersType: ({ context }) => context.membersType !== null,
    hasCameraFilter: ({ context }) => context.cameraFilter.groupId !== null,
  },
}).createMachine({
  id: 'groups',
  type: 'parallel',
  context: {
    device: [],
    camera: [],
    error: null,
    notice: null,
    revision: 0,
    pending: null,
    membersType: null,
    members: [],
    cameraFilter: { groupId: null, members: emptyFilter },
  },
  on: {
    'groups.dismiss': { actions: assign({ error: null, notice: null }) },
    'groups.clear': {
      actions: assign({
        device: [],
        camera: [],
        error: null,
        notice: null,
        members: [],
        membersType: null,
        cameraFilter: { groupId: null, members: emptyFilter },
      }),
    },
  },
  states: {
    tree: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['busy'],
          invoke: {
            id: 'loadTrees',
            src: 'loadTrees',
            onDone: {
              target: 'ready',
              actions: assign({
                device: ({ event }) => event.output.device,
                camera: ({ event }) => event.output.camera,
              }),
            },
            onError: { target: 'failed', actions: assign({ error: ({ event }) => errorOf(event.error) }) },
          },
        },
        ready: {
          on: {
            'groups.reload': 'loading',
            'groups.change': {
              target: 'saving',
              actions: assign({ pending: ({ event }) => event.change, error: null, notice: null }),
            },
          },
        },
        saving: {
          tags: ['busy'],
          invoke: {
            id: 'change',
            src: 'change',
            input: ({ context }) => context.pending!,
            onDone: {
              target: 'loading',
              actions: [
                assign({
                  error: null,
                  revision: ({ context }) => context.revision + 1,
                  notice: ({ context }) => context.pending?.op ?? null,
                  pending: null,
                }),
                raise({ type: 'groups.refreshLists' }),
              ],
            },
            onError: {
              target: 'ready',
              actions: assign({ error: ({ event }) => errorOf(event.error), pending: null }),
            },
          },
        },
        failed: { on: { 'groups.reload': { target: 'loading', actions: assign({ error: null }) } } },
      },
    },
    members: {
      initial: 'idle',
      on: {
        'groups.members': { target: '.loading', actions: 'setMembersType' },
      },
      states: {
        idle: {},
        loading: {
          tags: ['busy'],
          // A leaf's own re-entry restarts the load (on the region, reenter would restart every region).
          on: { 'groups.members': { target: 'loading', reenter: true, actions: 'setMembersType' } },
          invoke: {
            id: 'loadMembers',
            src: 'loadMembers',
            input: ({ context }) => ({ groupType: context.membersType ?? 'device' }),
            onDone: { target: 'ready', actions: assign({ members: ({ event }) => event.output }) },
            onError: {
              target: 'failed',
              actions: assign({ members: [], error: ({ event }) => errorOf(event.error) }),
            },
          },
        },
        ready: { on: { 'groups.refreshLists': { guard: 'hasMembersType', target: 'loading' } } },
        failed: {},
      },
    },
    cameraFilter: {
      initial: 'off',
      on: {
        'groups.cameraFilter': [
          { guard: 'filterCleared', target: '.off', actions: 'clearCameraFilter' },
          { target: '.loading', actions: 'setCameraFilter' },
        ],
      },
      states: {
        off: {},
        loading: {
          on: {
            'groups.cameraFilter': [
              { guard: 'filterCleared', target: 'off', actions: 'clearCameraFilter' },
              { target: 'loading', reenter: true, actions: 'setCameraFilter' },
            ],
          },
          invoke: {
            id: 'loadCameraFilter',
            src: 'loadCameraFilter',
            input: ({ context }) => ({ groupId: context.cameraFilter.groupId ?? '' }),
            onDone: {
              target: 'on',
              actions: assign({
                cameraFilter: ({ context, event }) => ({
                  groupId: context.cameraFilter.groupId,
                  members: event.output,
                }),
              }),
            },
            onError: { target: 'failed', actions: assign({ error: ({ event }) => errorOf(event.error) }) },
          },
        },
        on: { on: { 'groups.refreshLists': { guard: 'hasCameraFilter', target: 'loading' } } },
        failed: {},
      },
    },
  },
});
