/**
 * The container actions registry — spec §4 "Container action … Only one action per environment at a time
 * (ongoing-process warning)"; §3 Docker process; §8 "Ongoing Process".
 *
 * Long-lived (systemId 'containerActions'). `actions.start` spawns one containerAction actor per
 * `${deviceId}:${envName}` (actionKey); a second start on a key whose action still runs is refused with the
 * §8 "Ongoing Process" dialog. A finished action stays KEEP_FINISHED_MS so its outcome can be read, then is
 * stopped (`actions.dismiss` drops it at once). Each end is told to the containers actor (systemId
 * 'containers'), which reloads that device's containers.
 *
 * Docker processes survive a console reload: `watchProcesses` (provided) lists each connected device's
 * running processes (docker-processes) and forwards CONTAINER_EVENTS.process events as `actions.process`;
 * a running process without an actor gets a following actor (containerAction `follow`), an actor's own
 * process reports are passed to it. On sign-out `actions.reset` stops every action.
 */
import { emit, enqueueActions, fromCallback, setup, type ActorRefFrom, type EventObject } from 'xstate';
import type { DockerProcess } from '../../src/protocol/containers';
import type { ConsoleEmitted } from '../notifications/emitted';
import { SYSTEM_IDS } from '../systemIds';
import {
  containerActionMachine,
  type ActionEndedReport,
  type ContainerActionRequest,
} from './containerAction.machine';
import { CONTAINER_TEXTS, actionKey, isRunningProcess, processAction } from './containerActionChecks';

/** How long a finished action stays readable before it is dropped, ms. */
export const KEEP_FINISHED_MS = 10_000;

export type ContainerActionRef = ActorRefFrom<typeof containerActionMachine>;

export interface ContainerActionsContext {
  /** key `${deviceId}:${envName}` → its action actor (running or finished). */
  actions: Record<string, ContainerActionRef>;
  /** Keys whose action runs (spawned, not yet reported ended). */
  running: string[];
  /** Actions spawned so far (actor ids stay unique). */
  spawned: number;
  /** Clock, ms since the epoch (given to the actions). */
  now: () => number;
}

export interface ContainerActionsInput {
  now?: () => number;
}

export type ContainerActionsEvent =
  /** A view asks for an action (§4). */
  | { type: 'actions.start'; request: ContainerActionRequest }
  /** Drop a finished action now (the user closed its outcome). */
  | { type: 'actions.dismiss'; key: string }
  /** The device's Docker processes (docker-processes, after its link opened). */
  | { type: 'actions.processes'; deviceId: string; deviceName: string; processes: DockerProcess[] }
  /** One process report (CONTAINER_EVENTS.process). */
  | { type: 'actions.process'; deviceId: string; deviceName: string; process: DockerProcess }
  /** Sign-in: start watching the devices' processes. */
  | { type: 'actions.watch' }
  /** Sign-out: stop every action. */
  | { type: 'actions.reset' }
  /** Internal (delayed): a finished action's time is up. */
  | { type: 'actions.expire'; key: string }
  | ActionEndedReport;

const notProvided = (name: string): never => {
  throw new Error(`containerActions: actor '${name}' is not provided`);
};

/** The registry's effects, named; src/console/features/containers/actors.ts provides them. */
export const containerActionsActors = {
  /**
   * Lists each connected device's Docker processes when its link opens (docker-processes → `actions.processes`)
   * and forwards CONTAINER_EVENTS.process link events (→ `actions.process`). Stopped on sign-out.
   */
  watchProcesses: fromCallback<EventObject>(() => notProvided('watchProcesses')),
};

/** True while the action of `key` runs. */
const isRunning = (context: ContainerActionsContext, key: string): boolean => context.running.includes(key);

const keyOfProcess = (deviceId: string, p: DockerProcess): string => actionKey(deviceId, p.envName, p.id);

export const containerActionsMachine = setup({
  types: {
    context: {} as ContainerActionsContext,
    events: {} as ContainerActionsEvent,
    input: {} as ContainerActionsInput,
    emitted: {} as ConsoleEmitted,
  },
  actors: { ...containerActionsActors, containerAction: containerActionMachine },
  actions: {
    /** Spawns the request's action (replacing a finished one on the same key). */
    spawnAction: enqueueActions(({ context, event, enqueue, self }) => {
      if (event.type !== 'actions.start') return;
      const r = event.request;
      const key = actionKey(r.deviceId, r.envName, r.containerId);
      const old = context.actions[key];
      if (old) enqueue.stopChild(old);
      enqueue.cancel(`expire:${key}`);
      const id = `action-${context.spawned + 1}`;
      enqueue.assign({
        spawned: context.spawned + 1,
        running: [...context.running, key],
        actions: ({ context: c, spawn }) => ({
          ...c.actions,
          [key]: spawn('containerAction', {
            id,
            input: { ...r, key, reportTo: self, now: c.now },
          }),
        }),
      });
    }),
    /** §8 "Ongoing Process": the environment already has a running action. */
    warnOngoing: emit(({ context, event }): ConsoleEmitted => {
      const r = event.type === 'actions.start' ? event.request : null;
      const running = r ? context.actions[actionKey(r.deviceId, r.envName, r.containerId)] : undefined;
      const c = running?.getSnapshot().context;
      return {
        type: 'dialog',
        title: CONTAINER_TEXTS.ongoingProcess,
        message: c
          ? `${c.action} ${c.envName ?? c.docker} on ${c.deviceName}: ${c.message}`
          : CONTAINER_TEXTS.ongoingProcess,
      };
    }),
    /** An action ended: keep it a while, and have the device's containers reloaded. */
    actionEnded: enqueueActions(({ context, event, enqueue, system }) => {
      if (event.type !== 'action.ended' || !context.actions[event.key]) return;
      enqueue.assign({ running: context.running.filter((k) => k !== event.key) });
      enqueue.raise(
        { type: 'actions.expire', key: event.key },
        { id: `expire:${event.key}`, delay: KEEP_FINISHED_MS },
      );
      const containers = system.get(SYSTEM_IDS.containers);
      const refresh = { type: 'containers.refresh', deviceId: event.deviceId };
      if (containers) enqueue.sendTo(containers, refresh);
    }),
    /** Drops a finished action (a running one stays). */
    dropAction: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'actions.expire' && event.type !== 'actions.dismiss') return;
      const ref = context.actions[event.key];
      if (!ref || isRunning(context, event.key)) return;
      enqueue.cancel(`expire:${event.key}`);
      enqueue.stopChild(ref);
      const { [event.key]: _gone, ...rest } = context.actions;
      enqueue.assign({ actions: rest });
    }),
    /** Running Docker processes of a device: follow those without an actor; pass reports to the others. */
    trackProcesses: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'actions.processes' && event.type !== 'actions.process') return;
      const list = event.type === 'actions.processes' ? event.processes : [event.process];
      const spawned: Array<[string, DockerProcess]> = [];
      for (const p of list) {
        const key = keyOfProcess(event.deviceId, p);
        const ref = context.actions[key];
        if (ref && isRunning(context, key)) enqueue.sendTo(ref, { type: 'action.process', process: p });
        else if (isRunningProcess(p) && !spawned.some(([k]) => k === key)) spawned.push([key, p]);
      }
      if (spawned.length === 0) return;
      for (const [key] of spawned) {
        const old = context.actions[key];
        if (old) enqueue.stopChild(old);
        enqueue.cancel(`expire:${key}`);
      }
      enqueue.assign(({ context: c, spawn, self }) => {
        const actions = { ...c.actions };
        let n = c.spawned;
        for (const [key, p] of spawned) {
          n += 1;
          actions[key] = spawn('containerAction', {
            id: `action-${n}`,
            input: {
              key,
              deviceId: event.deviceId,
              deviceName: event.deviceName,
              envName: p.envName,
              image: p.docker,
              action: processAction(p),
              jupyter: false,
              gpu: p.gpu,
              reportTo: self,
              now: c.now,
              follow: p,
            },
          });
        }
        return { actions, spawned: n, running: [...c.running, ...spawned.map(([key]) => key)] };
      });
    }),
    stopAll: enqueueActions(({ context, enqueue }) => {
      for (const [key, ref] of Object.entries(context.actions)) {
        enqueue.cancel(`expire:${key}`);
        enqueue.stopChild(ref);
      }
      enqueue.assign({ actions: {}, running: [] });
    }),
  },
  guards: {
    ongoing: ({ context, event }) => {
      if (event.type !== 'actions.start') return false;
      const r = event.request;
      return isRunning(context, actionKey(r.deviceId, r.envName, r.containerId));
    },
  },
}).createMachine({
  id: 'containerActions',
  context: ({ input }) => ({ actions: {}, running: [], spawned: 0, now: input?.now ?? (() => 0) }),
  on: {
    'actions.start': [{ guard: 'ongoing', actions: 'warnOngoing' }, { actions: 'spawnAction' }],
    'action.ended': { actions: 'actionEnded' },
    'actions.expire': { actions: 'dropAction' },
    'actions.dismiss': { actions: 'dropAction' },
    'actions.reset': { target: '.idle', actions: 'stopAll' },
  },
  initial: 'idle',
  states: {
    idle: {
      on: { 'actions.watch': { target: 'watching' } },
    },
    watching: {
      invoke: { src: 'watchProcesses' },
      on: {
        'actions.processes': { actions: 'trackProcesses' },
        'actions.process': { actions: 'trackProcesses' },
      },
    },
  },
});
