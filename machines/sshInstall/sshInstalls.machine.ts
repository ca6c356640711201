/**
 * The SSH installs registry — spec §3 "SSH install" connection list, §2 unload warning (issue 12).
 *
 * Long-lived (systemId 'sshInstall'). `sshInstalls.start` spawns one sshInstall actor per install (key
 * `ssh-<n>`, the newest is `current`: the one the screen shows) and sends it `ssh.connect`; each install
 * reports its changes (`sshInstalls.changed`), and the registry keeps which ones are in their installing state —
 * `installing` (the §2 unload warning while any runs). `sshInstalls.dismiss` drops a finished one (not one that
 * installs); sign-out (`sshInstalls.reset`) stops every install (their sessions close on the server when idle).
 */
import { enqueueActions, setup, type ActorRefFrom } from 'xstate';
import {
  sshInstallMachine,
  type SshCredentials,
  type SshInstallRef,
  type SshInstallTarget,
} from './sshInstall.machine';

export interface SshInstallsContext {
  /** key → its install actor (§3 connection list). */
  installs: Record<string, SshInstallRef>;
  /** The install the screen shows (the newest), or null. */
  current: string | null;
  /** Keys of the installs in their installing state (§2 unload warning). */
  installing: string[];
  spawned: number;
  now: () => number;
}

export type SshInstallsEvent =
  | { type: 'sshInstalls.start'; target: SshInstallTarget; credentials: SshCredentials }
  | { type: 'sshInstalls.dismiss'; key: string }
  /** An install changed state; `installing`: it is in its installing state now. */
  | { type: 'sshInstalls.changed'; key: string; installing: boolean }
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
      const key = `ssh-${context.spawned + 1}`;
      enqueue.assign({
        spawned: context.spawned + 1,
        current: key,
        installs: ({ context: c, spawn }) => ({
          ...c.installs,
          [key]: spawn('sshInstall', {
            id: key,
            input: { key, target: event.target, reportTo: self, now: c.now },
          }),
        }),
      });
      enqueue.sendTo(key, { type: 'ssh.connect', credentials: event.credentials });
    }),
    readInstalling: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'sshInstalls.changed' || !context.installs[event.key]) return;
      const others = context.installing.filter((k) => k !== event.key);
      enqueue.assign({ installing: event.installing ? [...others, event.key] : others });
    }),
    dismiss: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'sshInstalls.dismiss') return;
      const ref = context.installs[event.key];
      if (!ref || context.installing.includes(event.key)) return;
      enqueue.stopChild(ref);
      const { [event.key]: _gone, ...rest } = context.installs;
      enqueue.assign({ installs: rest, current: context.current === event.key ? null : context.current });
    }),
    stopAll: enqueueActions(({ context, enqueue }) => {
      for (const ref of Object.values(context.installs)) enqueue.stopChild(ref);
      enqueue.assign({ installs: {}, installing: [], current: null });
    }),
  },
}).createMachine({
  id: 'sshInstalls',
  context: ({ input }) => ({
    installs: {},
    current: null,
    installing: [],
    spawned: 0,
    now: input?.now ?? Date.now,
  }),
  on: {
    'sshInstalls.start': { actions: 'spawnInstall' },
    'sshInstalls.changed': { actions: 'readInstalling' },
    'sshInstalls.dismiss': { actions: 'dismiss' },
    'sshInstalls.reset': { actions: 'stopAll' },
  },
});

export type SshInstallsRef = ActorRefFrom<typeof sshInstallsMachine>;
