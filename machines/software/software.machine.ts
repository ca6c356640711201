/**
 * The software registry — the Software tab's state for every device it shows (issue 16 §1 "Software"; §7
 * check-version-update, check-stream-engine-update, check-companion-update, check-companion-restart; §4 client
 * update).
 *
 * Long-lived (systemId 'software'). `software.check { deviceId, op }` runs one check through the provided
 * `checkTask` actor (one per device and check; a new one replaces a running one), which answers
 * `software.result` or `software.failed`. `update.start` spawns one clientUpdate actor per device (a second
 * start while one runs is ignored); an ended update stays readable until `update.dismiss` or the next start,
 * and its end reads the version again. On sign-out `software.reset` stops everything.
 */
import { assign, enqueueActions, fromCallback, setup, type ActorRefFrom } from 'xstate';
import type { ConsoleEmitted } from '../notifications/emitted';
import { clientUpdateMachine, type ClientUpdateReport } from './clientUpdate.machine';

export type ClientUpdateRef = ActorRefFrom<typeof clientUpdateMachine>;

/** The checks of the tab ('status': get-download-upload-status, an update already under way on the device). */
export type CheckOp = 'version' | 'status' | 'stream-engine' | 'companion-update' | 'companion-restart';
export const CHECK_OPS: readonly CheckOp[] = [
  'version',
  'status',
  'stream-engine',
  'companion-update',
  'companion-restart',
];

/** One check's state: its last answer (the device's reply, src/protocol/software.ts), busy, its error. */
export interface CheckState {
  result: unknown;
  busy: boolean;
  error: string | null;
}

export interface SoftwareContext {
  /** deviceId → op → its check. */
  checks: Record<string, Partial<Record<CheckOp, CheckState>>>;
  /** deviceId → its current or last update. */
  updates: Record<string, ClientUpdateRef>;
  /** deviceIds whose update runs. */
  running: string[];
  spawned: number;
}

export interface CheckTaskInput {
  deviceId: string;
  op: CheckOp;
}

export type SoftwareEvent =
  | { type: 'software.check'; deviceId: string; op: CheckOp }
  | { type: 'software.result'; deviceId: string; op: CheckOp; result: unknown }
  | { type: 'software.failed'; deviceId: string; op: CheckOp; error: string }
  | { type: 'update.start'; deviceId: string; deviceName: string; version: string | null }
  | { type: 'update.dismiss'; deviceId: string }
  | { type: 'software.reset' }
  | ClientUpdateReport;

const notProvided = (name: string): never => {
  throw new Error(`software: actor '${name}' is not provided`);
};

/** The registry's effects; src/console/features/software/actors.ts provides them. */
export const softwareActors = {
  /** Runs one check; answers software.result or software.failed. */
  checkTask: fromCallback<SoftwareEvent, CheckTaskInput>(() => notProvided('checkTask')),
};

const EMPTY: CheckState = { result: null, busy: false, error: null };

const setCheck = (
  checks: SoftwareContext['checks'],
  deviceId: string,
  op: CheckOp,
  patch: Partial<CheckState>,
): SoftwareContext['checks'] => ({
  ...checks,
  [deviceId]: { ...checks[deviceId], [op]: { ...(checks[deviceId]?.[op] ?? EMPTY), ...patch } },
});

export const softwareMachine = setup({
  types: {
    context: {} as SoftwareContext,
    events: {} as SoftwareEvent,
    emitted: {} as ConsoleEmitted,
  },
  actors: { ...softwareActors, clientUpdate: clientUpdateMachine },
  guards: {
    running: ({ context, event }) =>
      event.type === 'update.start' && context.running.includes(event.deviceId),
    known: ({ context, event }) => 'deviceId' in event && !!context.updates[event.deviceId],
  },
  actions: {
    startCheck: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'software.check' && event.type !== 'update.ended') return;
      const op: CheckOp = event.type === 'software.check' ? event.op : 'version';
      const id = `check:${event.deviceId}:${op}`;
      enqueue.stopChild(id);
      enqueue.spawnChild('checkTask', { id, input: { deviceId: event.deviceId, op } });
      enqueue.assign({ checks: setCheck(context.checks, event.deviceId, op, { busy: true, error: null }) });
    }),
    answer: assign({
      checks: ({ context, event }) => {
        if (event.type === 'software.result') {
          return setCheck(context.checks, event.deviceId, event.op, { result: event.result, busy: false });
        }
        if (event.type === 'software.failed') {
          return setCheck(context.checks, event.deviceId, event.op, { busy: false, error: event.error });
        }
        return context.checks;
      },
    }),
    spawnUpdate: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'update.start') return;
      const old = context.updates[event.deviceId];
      if (old) enqueue.stopChild(old);
      enqueue.assign({
        spawned: context.spawned + 1,
        running: [...context.running, event.deviceId],
        updates: ({ context: c, spawn, self }) => ({
          ...c.updates,
          [event.deviceId]: spawn('clientUpdate', {
            id: `update-${c.spawned + 1}`,
            input: {
              deviceId: event.deviceId,
              deviceName: event.deviceName,
              version: event.version,
              reportTo: self,
            },
          }),
        }),
      });
    }),
    ended: assign({
      running: ({ context, event }) =>
        event.type === 'update.ended' ? context.running.filter((d) => d !== event.deviceId) : context.running,
    }),
    dismiss: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'update.dismiss') return;
      const ref = context.updates[event.deviceId];
      if (!ref || context.running.includes(event.deviceId)) return;
      enqueue.stopChild(ref);
      const { [event.deviceId]: _gone, ...rest } = context.updates;
      enqueue.assign({ updates: rest });
    }),
    stopAll: enqueueActions(({ context, enqueue }) => {
      for (const ref of Object.values(context.updates)) enqueue.stopChild(ref);
      for (const [deviceId, ops] of Object.entries(context.checks)) {
        for (const op of Object.keys(ops)) enqueue.stopChild(`check:${deviceId}:${op}`);
      }
      enqueue.assign({ updates: {}, running: [], checks: {} });
    }),
  },
}).createMachine({
  id: 'software',
  context: { checks: {}, updates: {}, running: [], spawned: 0 },
  on: {
    'software.check': { actions: 'startCheck' },
    'software.result': { actions: 'answer' },
    'software.failed': { actions: 'answer' },
    'update.start': [{ guard: 'running' }, { actions: 'spawnUpdate' }],
    'update.ended': { guard: 'known', actions: ['ended', 'startCheck'] },
    'update.dismiss': { actions: 'dismiss' },
    'software.reset': { actions: 'stopAll' },
  },
});
