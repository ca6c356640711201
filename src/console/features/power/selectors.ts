/**
 * What the Power tab shows, read from the power registry (systemId 'power') and the device's power action:
 * pure `*ToView(snapshot)` functions (unit-tested without React) and the hooks the screens use. Texts stay
 * as the machines give them (English §5/§8 texts and POWER_FLOW_TEXTS); `textKeyOf` maps them to i18n keys.
 */
import { useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { PowerActionRef, powerMachine, SudoState } from '../../../../machines/power/power.machine';
import {
  POWER_FLOW_TEXTS,
  type PowerActionKind,
  type powerActionMachine,
} from '../../../../machines/power/powerAction.machine';
import { POWER_TEXTS } from '../../../protocol/powerTexts';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { actorOf, useSystem } from '../../shell/SystemProvider';

type PowerSnapshot = SnapshotFrom<typeof powerMachine>;
type ActionSnapshot = SnapshotFrom<typeof powerActionMachine>;
export type PowerRef = ActorRefFrom<typeof powerMachine>;

/** The step of a power action the tab shows. */
export type PowerStep =
  | 'confirming'
  | 'restartDelay'
  | 'checking'
  | 'askingSudo'
  | 'sending'
  | 'waitingOffline'
  | 'waitingOnline'
  | 'done'
  | 'failed'
  | 'cancelled';

export interface PowerActionView {
  action: PowerActionKind;
  step: PowerStep;
  /** The step is under way (buttons wait). */
  busy: boolean;
  /** The action has ended (done, failed, cancelled). */
  ended: boolean;
  /** The sudo dialog is shown (asking, or checking what was typed). */
  sudoOpen: boolean;
  /** The sudo dialog's error (§5 / §8 text), or null. */
  sudoError: string | null;
  /** Why it failed, or null. */
  error: string | null;
  /** A shut-down device went off ("Shutdown Successful"). */
  wentOff: boolean;
}

/** One power action's view. */
export function actionToView(s: ActionSnapshot): PowerActionView {
  const value = s.value as string;
  const step: PowerStep =
    value === 'checkingSaved' || value === 'checkingSudo' ? 'checking' : (value as PowerStep);
  return {
    action: s.context.action,
    step,
    busy: step === 'checking' || step === 'sending',
    ended: s.status === 'done',
    sudoOpen: value === 'askingSudo' || value === 'checkingSudo',
    sudoError: s.context.sudoError,
    error: s.context.error,
    wentOff: s.context.wentOff,
  };
}

export interface PowerDeviceView {
  /** The device's action (running or ended), or null. */
  action: PowerActionRef | null;
  running: boolean;
  sudo: SudoState | null;
}

/** The registry's view for one device. */
export function powerToView(s: PowerSnapshot, deviceId: string): PowerDeviceView {
  return {
    action: s.context.actions[deviceId] ?? null,
    running: s.context.running.includes(deviceId),
    sudo: s.context.sudo[deviceId] ?? null,
  };
}

/** The i18n key (`power.texts.*` or `power.flow.*`) of a machine's English text, or null (device's words). */
export function textKeyOf(text: string): string | null {
  const t = Object.entries(POWER_TEXTS).find(([, english]) => english === text);
  if (t) return `power.texts.${t[0]}`;
  const f = Object.entries(POWER_FLOW_TEXTS).find(([, english]) => english === text);
  return f ? `power.flow.${f[0]}` : null;
}

export const usePowerRef = (): PowerRef => actorOf<PowerRef>(useSystem(), SYSTEM_IDS.power);

export function usePowerView(deviceId: string): PowerDeviceView {
  return useSelector(
    usePowerRef(),
    (s) => powerToView(s, deviceId),
    (a, b) =>
      a.action === b.action && a.running === b.running && JSON.stringify(a.sudo) === JSON.stringify(b.sudo),
  );
}

export function useActionView(ref: PowerActionRef): PowerActionView {
  return useSelector(ref, actionToView, (a, b) => JSON.stringify(a) === JSON.stringify(b));
}
