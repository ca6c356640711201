/**
 * The power action on model-based paths (xstate/graph over the real machine): confirm, the §9 client restart
 * delay, saved / needed sudo, the §5 sudo dialog (empty, wrong, right), the command's refusals, going offline,
 * coming back, the time-outs, cancel; and the §8 texts it shows and emits.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import {
  powerActionMachine,
  POWER_FLOW_TEXTS,
  type PowerActionInput,
  type PowerActionKind,
} from '../../../machines/power/powerAction.machine';
import { POWER_TEXTS } from '../../../src/protocol/powerTexts';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof powerActionMachine>;

const coded = (code: string, message: string) => Object.assign(new Error(message), { code });
const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output }) as EventObject;
const fail = (id: string, error: unknown) => ({ type: `xstate.error.actor.${id}`, error }) as EventObject;

function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'sudo.submit':
      return [
        { type, password: '', save: false },
        { type, password: 'edge-sim', save: true },
      ] as unknown as EventObject[];
    case 'power.presence':
      return [
        { type, online: false },
        { type, online: true },
      ] as unknown as EventObject[];
    case 'xstate.done.actor.checkSudoSaved':
      return [
        done('checkSudoSaved', { saved: false, needed: true }),
        done('checkSudoSaved', { saved: true, needed: true }),
      ];
    case 'xstate.error.actor.checkSudoSaved':
      return [fail('checkSudoSaved', coded('timeout', 'no answer'))];
    case 'xstate.done.actor.checkSudo':
      return [done('checkSudo', { saved: true })];
    case 'xstate.error.actor.checkSudo':
      return [
        fail('checkSudo', coded('invalid_password', POWER_TEXTS.invalidPassword)),
        fail('checkSudo', coded('timeout', 'no answer')),
      ];
    case 'xstate.done.actor.sendPower':
      return [done('sendPower', { accepted: true })];
    case 'xstate.error.actor.sendPower':
      return [
        fail('sendPower', coded('sudo_required', POWER_TEXTS.sudoRequired)),
        fail('sendPower', coded('force_failed', `${POWER_TEXTS.forceFailed}: poweroff exited 1`)),
        fail('sendPower', coded('power_disabled', 'Power actions are turned off')),
      ];
    default:
      return undefined;
  }
  void s;
}

const key = (s: Snap) =>
  JSON.stringify([s.value, s.context.sudoError, s.context.error, s.context.wentOff, !!s.context.password]);

function modelFor(action: PowerActionKind) {
  const input: PowerActionInput = { deviceId: 'dev-1', deviceName: 'Box A', action };
  const model = createMachineTestModel(powerActionMachine, { events: eventsFor, key, input });
  return { input, paths: model.getShortestPaths({ allowDuplicatePaths: true }) };
}

function start(input: PowerActionInput, emitted: string[]) {
  return (driver: Driver) => {
    const actor = createActor(
      powerActionMachine.provide({
        actors: {
          checkSudoSaved: driver.promise('checkSudoSaved'),
          checkSudo: driver.promise('checkSudo'),
          sendPower: driver.promise('sendPower'),
          watchPresence: driver.callback('watchPresence'),
        },
      }),
      { input, clock: driver.clock },
    );
    actor.on('notice', (e) => emitted.push(`${e.title}|${e.message}`));
    return actor.start();
  };
}

describe('power action (model-based paths)', () => {
  for (const action of ['reboot', 'shutdown', 'forceShutdown', 'restartClient'] as const) {
    it(`${action}: follows every modelled path on the real machine`, async () => {
      const { input, paths } = modelFor(action);
      const emitted: string[] = [];
      const steps = await runPaths(paths, start(input, emitted), key);
      expect(steps).toBeGreaterThan(paths.length);
      const ends = paths.map((p) => p.state);
      expect(ends.some((s) => s.matches('done'))).toBe(true);
      expect(ends.some((s) => s.matches('cancelled'))).toBe(true);
      if (action !== 'restartClient') {
        // §5: an empty password and a wrong one are refused in the dialog with their texts.
        expect(
          ends.some((s) => s.matches('askingSudo') && s.context.sudoError === POWER_TEXTS.emptyPassword),
        ).toBe(true);
        expect(
          ends.some((s) => s.matches('askingSudo') && s.context.sudoError === POWER_TEXTS.invalidPassword),
        ).toBe(true);
        expect(
          ends.some((s) => s.matches('askingSudo') && s.context.sudoError === POWER_TEXTS.sudoRequired),
        ).toBe(true);
        expect(emitted).toContain(`${POWER_TEXTS.success}|Box A: ${POWER_TEXTS.mayTakeMinutes}`);
        expect(ends.some((s) => s.matches('failed') && s.context.error === POWER_TEXTS.forceFailed)).toBe(
          true,
        );
      } else {
        // §9: the command is sent only after the 10 s delay.
        for (const p of paths.filter((q) => q.state.matches('waitingOffline'))) {
          expect(p.steps.some((st) => st.event.type.startsWith('xstate.after.clientRestart'))).toBe(true);
        }
      }
      if (action === 'shutdown' || action === 'forceShutdown') {
        expect(emitted).toContain(`${POWER_TEXTS.shutdownSuccessful}|Box A`);
      }
      expect(emitted).toContain(`${POWER_TEXTS.success}|Box A: ${POWER_FLOW_TEXTS.backOnline}`);
      expect(ends.some((s) => s.matches('failed') && s.context.error === POWER_FLOW_TEXTS.notOffline)).toBe(
        true,
      );
    });
  }

  it('never keeps a password once the command is answered', () => {
    const { paths } = modelFor('reboot');
    for (const p of paths) {
      if (p.state.matches('waitingOffline') || p.state.matches('done') || p.state.matches('failed')) {
        expect(p.state.context.password).toBeNull();
      }
    }
  });
});
