/**
 * The power feature's side effects (machines/power/*.machine.ts): the sudo and power device commands, and the
 * device's presence read from the devices feature — its connection in the device pool (systemId
 * 'devicePool') is open (online) or not (reconnecting while the device is off the air). Loaded in its own
 * chunk after sign-in (ConsoleFeature.loadActors).
 */
import { fromCallback, fromPromise, type AnyActorRef, type Subscription } from 'xstate';
import { errorText } from '../../../../machines/notifications/emitted';
import { powerMachine, type PowerEvent, type SudoTaskInput } from '../../../../machines/power/power.machine';
import { powerActionMachine, type PowerActionEvent } from '../../../../machines/power/powerAction.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Platform } from '../feature';
import { powerCommands } from './api';

interface PoolLike {
  context: { connections: Record<string, AnyActorRef | undefined> };
}

/**
 * Calls `onChange(online)` now and whenever the device's connection opens or leaves `open` (the same value is
 * not reported twice). Returns the unsubscribe function.
 */
export function watchDeviceOnline(
  system: { get: (systemId: string) => AnyActorRef | undefined },
  deviceId: string,
  onChange: (online: boolean) => void,
): () => void {
  const pool = system.get(SYSTEM_IDS.devicePool);
  let last: boolean | null = null;
  let ref: AnyActorRef | undefined;
  let refSub: Subscription | null = null;
  const report = () => {
    const online = !!ref && (ref.getSnapshot() as { matches(v: string): boolean }).matches('open');
    if (online === last) return;
    last = online;
    onChange(online);
  };
  const follow = (snapshot: unknown) => {
    const next = (snapshot as PoolLike).context.connections[deviceId];
    if (next !== ref) {
      refSub?.unsubscribe();
      ref = next;
      refSub = ref ? ref.subscribe(report) : null;
    }
    report();
  };
  if (!pool) {
    onChange(false);
    return () => undefined;
  }
  follow(pool.getSnapshot());
  const poolSub = pool.subscribe(follow);
  return () => {
    poolSub.unsubscribe();
    refSub?.unsubscribe();
  };
}

export function powerActors({ peerLink }: Platform): FeatureActor[] {
  const commands = powerCommands(peerLink.callDevice.bind(peerLink));

  const powerAction = powerActionMachine.provide({
    actors: {
      checkSudoSaved: fromPromise(async ({ input }) => commands.sudoStatus(input.deviceId)),
      checkSudo: fromPromise(async ({ input }) => {
        const reply = await commands.checkSudo(input.deviceId, input.password, input.save);
        return { saved: reply.saved };
      }),
      sendPower: fromPromise(async ({ input }) =>
        commands.send(input.deviceId, input.action, input.password),
      ),
      watchPresence: fromCallback<PowerActionEvent, { deviceId: string }>(({ input, sendBack, system }) =>
        watchDeviceOnline(system, input.deviceId, (online) => sendBack({ type: 'power.presence', online })),
      ),
    },
  });

  const power = powerMachine.provide({
    actors: {
      powerAction,
      sudoTask: fromCallback<PowerEvent, SudoTaskInput>(({ input, sendBack }) => {
        let live = true;
        void (async () => {
          if (input.op === 'remove') await commands.removeSaved(input.deviceId);
          return commands.sudoStatus(input.deviceId);
        })().then(
          (s) => live && sendBack({ type: 'sudo.status', deviceId: input.deviceId, ...s }),
          (error: unknown) =>
            live &&
            sendBack({ type: 'sudo.failed', deviceId: input.deviceId, error: errorText(error, 'Failed') }),
        );
        return () => {
          live = false;
        };
      }),
    },
  });

  return [
    featureActor({
      systemId: SYSTEM_IDS.power,
      logic: power,
      onSignOut: [{ type: 'power.reset' }],
    }),
  ];
}
