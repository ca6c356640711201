/**
 * The power registry — spec §7 restartDevice, shutDownDevice, force-shut-down, restartItself; "Sudo":
 * check-sudo-saved, remove-saved-sudo (issue 16 §1 "Power": a saved sudo password can be removed).
 *
 * Long-lived (systemId 'power'). `power.start` spawns one powerAction actor per device (a device runs one power
 * action at a time: a second start while one runs is ignored); an ended action stays readable until
 * `power.dismiss` or the next start on that device. The saved-sudo state of each device the tab shows is read
 * with `sudo.refresh` and removed with `sudo.remove` through the provided `sudoTask` actor (one per device,
 * answering `sudo.status` or `sudo.failed`). On sign-out `power.reset` stops everything.
 */
import { assign, enqueueActions, fromCallback, setup, type ActorRefFrom } from 'xstate';
import type { ConsoleEmitted } from '../notifications/emitted';
import { powerActionMachine, type PowerActionKind, type PowerActionReport } from './powerAction.machine';

export type PowerActionRef = ActorRefFrom<typeof powerActionMachine>;

/** The saved sudo password of one device as the tab shows it. */
export interface SudoState {
  /** Saved on the device; null until known. */
  saved: boolean | null;
  /** The device asks a sudo password at all (false: its agent runs as root). */
  needed: boolean;
  /** A read or a removal is under way. */
  busy: boolean;
  error: string | null;
}

export interface PowerContext {
  /** deviceId → its current or last power action. */
  actions: Record<string, PowerActionRef>;
  /** deviceIds whose action runs. */
  running: string[];
  /** deviceId → its saved-sudo state. */
  sudo: Record<string, SudoState>;
  /** Actions spawned so far (unique actor ids). */
  spawned: number;
}

/** What a sudoTask does: read check-sudo-saved, or remove-saved-sudo then read again. */
export interface SudoTaskInput {
  deviceId: string;
  op: 'status' | 'remove';
}

export type PowerEvent =
  | { type: 'power.start'; deviceId: string; deviceName: string; action: PowerActionKind }
  | { type: 'power.dismiss'; deviceId: string }
  | { type: 'power.reset' }
  | { type: 'sudo.refresh'; deviceId: string }
  | { type: 'sudo.remove'; deviceId: string }
  /** sudoTask's answer. */
  | { type: 'sudo.status'; deviceId: string; saved: boolean; needed: boolean }
  | { type: 'sudo.failed'; deviceId: string; error: string }
  | PowerActionReport;

const notProvided = (name: string): never => {
  throw new Error(`power: actor '${name}' is not provided`);
};

/** The registry's effects; src/console/features/power/actors.ts provides them. */
export const powerActors = {
  /** check-sudo-saved (op 'status') or remove-saved-sudo then check-sudo-saved (op 'remove'). */
  sudoTask: fromCallback<PowerEvent, SudoTaskInput>(() => notProvided('sudoTask')),
};

const EMPTY_SUDO: SudoState = { saved: null, needed: true, busy: false, error: null };

export const powerMachine = setup({
  types: {
    context: {} as PowerContext,
    events: {} as PowerEvent,
    emitted: {} as ConsoleEmitted,
  },
  actors: { ...powerActors, powerAction: powerActionMachine },
  guards: {
    running: ({ context, event }) => event.type === 'power.start' && context.running.includes(event.deviceId),
    known: ({ context, event }) => 'deviceId' in event && !!context.actions[event.deviceId],
  },
  actions: {
    spawnAction: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'power.start') return;
      const old = context.actions[event.deviceId];
      if (old) enqueue.stopChild(old);
      enqueue.assign({
        spawned: context.spawned + 1,
        running: [...context.running, event.deviceId],
        actions: ({ context: c, spawn, self }) => ({
          ...c.actions,
          [event.deviceId]: spawn('powerAction', {
            id: `power-${c.spawned + 1}`,
            input: {
              deviceId: event.deviceId,
              deviceName: event.deviceName,
              action: event.action,
              reportTo: self,
            },
          }),
        }),
      });
    }),
    ended: assign({
      running: ({ context, event }) =>
        event.type === 'power.ended' ? context.running.filter((d) => d !== event.deviceId) : context.running,
    }),
    dismiss: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'power.dismiss') return;
      const ref = context.actions[event.deviceId];
      if (!ref || context.running.includes(event.deviceId)) return;
      enqueue.stopChild(ref);
      const { [event.deviceId]: _gone, ...rest } = context.actions;
      enqueue.assign({ actions: rest });
    }),
    startSudoTask: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'sudo.refresh' && event.type !== 'sudo.remove') return;
      const id = `sudo:${event.deviceId}`;
      enqueue.stopChild(id);
      enqueue.spawnChild('sudoTask', {
        id,
        input: { deviceId: event.deviceId, op: event.type === 'sudo.remove' ? 'remove' : 'status' },
      });
      const prev = context.sudo[event.deviceId] ?? EMPTY_SUDO;
      enqueue.assign({ sudo: { ...context.sudo, [event.deviceId]: { ...prev, busy: true, error: null } } });
    }),
    sudoAnswer: assign({
      sudo: ({ context, event }) => {
        if (event.type === 'sudo.status') {
          return {
            ...context.sudo,
            [event.deviceId]: { saved: event.saved, needed: event.needed, busy: false, error: null },
          };
        }
        if (event.type === 'sudo.failed') {
          const prev = context.sudo[event.deviceId] ?? EMPTY_SUDO;
          return { ...context.sudo, [event.deviceId]: { ...prev, busy: false, error: event.error } };
        }
        if (event.type === 'power.sudoSaved') {
          const prev = context.sudo[event.deviceId] ?? EMPTY_SUDO;
          return { ...context.sudo, [event.deviceId]: { ...prev, saved: event.saved } };
        }
        return context.sudo;
      },
    }),
    stopAll: enqueueActions(({ context, enqueue }) => {
      for (const ref of Object.values(context.actions)) enqueue.stopChild(ref);
      for (const deviceId of Object.keys(context.sudo)) enqueue.stopChild(`sudo:${deviceId}`);
      enqueue.assign({ actions: {}, running: [], sudo: {} });
    }),
  },
}).createMachine({
  id: 'power',
  context: { actions: {}, running: [], sudo: {}, spawned: 0 },
  on: {
    'power.start': [{ guard: 'running' }, { actions: 'spawnAction' }],
    'power.ended': { guard: 'known', actions: 'ended' },
    'power.dismiss': { actions: 'dismiss' },
    'power.sudoSaved': { actions: 'sudoAnswer' },
    'sudo.refresh': { actions: 'startSudoTask' },
    'sudo.remove': { actions: 'startSudoTask' },
    'sudo.status': { actions: 'sudoAnswer' },
    'sudo.failed': { actions: 'sudoAnswer' },
    'power.reset': { actions: 'stopAll' },
  },
});
