/**
 * The SSH installs registry — spec §3 "SSH install" connection list, §2 unload warning (issue 12).
 *
 * Long-lived (systemId 'sshInstall'). `sshInstalls.start` spawns one sshInstall actor per device (a previous
 * one of that device is stopped first) and sends it `ssh.connect`; each install reports its changes
 * (`sshInstalls.changed`), after which the registry re-reads which installs run — `installing` (the §2 unload
 * warning while any install is in its installing state). `sshInstalls.dismiss` drops a finished one;
 * sign-out (`sshInstalls.reset`) stops every install (their sessions close on the server when idle).
 */
import { enqueueActions, setup, type ActorRefFrom } from 'xstate';
import {
  sshInstallMachine,
  type SshCredentials,
  type SshInstallRef,
  type SshInstallTarget,
} from './sshInstall.machine';

export interface SshInstallsContext {
  /** deviceId → its install actor (§3 connection list). */
  installs: Record<string, SshInstallRef>;
  /** deviceIds whose install is in its installing state (§2 unload warning). */
  installing: string[];
  spawned: number;
  now: () => number;
}

export type SshInstallsEvent =
  | { type: 'sshInstalls.start'; target: SshInstallTarget; credentials: SshCredentials }
  | { type: 'sshInstalls.dismiss'; deviceId: string }
  /** An install changed state; `installing`: it is in its installing state now. */
  | { type: 'sshInstalls.changed'; deviceId: string; installing: boolean }
  | { type: 'sshInstalls.reset' };

export const sshInstallsMachine = setup({
  types: {
    context: {} as SshInstallsContext,
    events: {} as SshInstallsEvent,
    input: {} as { now?: () => number } | undefined,
  },
  actors: { sshInstall: sshInstallMachine },
  actions: {
    spawnInstall: enqueueActions(({ context, event, enqueue, self }) => {
      if (event.type !== 'sshInstalls.start') return;
      const key = event.target.deviceId;
      const old = context.installs[key];
      if (old) enqueue.stopChild(old);
      const id = `sshInstall-${context.spawned + 1}`;
      enqueue.assign({
        spawned: context.spawned + 1,
        installs: ({ context: c, spawn }) => ({
          ...c.installs,
          [key]: spawn('sshInstall', { id, input: { target: event.target, reportTo: self, now: c.now } }),
        }),
      });
      enqueue.sendTo(id, { type: 'ssh.connect', credentials: event.credentials });
    }),
    readInstalling: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'sshInstalls.changed' || !context.installs[event.deviceId]) return;
      const others = context.installing.filter((k) => k !== event.deviceId);
      enqueue.assign({ installing: event.installing ? [...others, event.deviceId] : others });
    }),
    dismiss: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'sshInstalls.dismiss') return;
      const ref = context.installs[event.deviceId];
      if (!ref || context.installing.includes(event.deviceId)) return;
      enqueue.stopChild(ref);
      const { [event.deviceId]: _gone, ...rest } = context.installs;
      enqueue.assign({ installs: rest, installing: context.installing.filter((k) => k !== event.deviceId) });
    }),
    stopAll: enqueueActions(({ context, enqueue }) => {
      for (const ref of Object.values(context.installs)) enqueue.stopChild(ref);
      enqueue.assign({ installs: {}, installing: [] });
    }),
  },
}).createMachine({
  id: 'sshInstalls',
  context: ({ input }) => ({ installs: {}, installing: [], spawned: 0, now: input?.now ?? Date.now }),
  on: {
    'sshInstalls.start': { actions: 'spawnInstall' },
    'sshInstalls.changed': { actions: 'readInstalling' },
    'sshInstalls.dismiss': { actions: 'dismiss' },
    'sshInstalls.reset': { actions: 'stopAll' },
  },
});

export type SshInstallsRef = ActorRefFrom<typeof sshInstallsMachine>;
