/**
 * The power console feature without React: the selectors' pure views, the §5/§8 text keys in every language,
 * the presence watch over a device pool (the devices feature's connection actors), and the actors' commands
 * over a fake link.
 */
import { describe, expect, it } from 'vitest';
import { assign, createActor, createMachine, setup, type AnyActorRef } from 'xstate';
import { powerMachine } from '../../../machines/power/power.machine';
import { POWER_FLOW_TEXTS, powerActionMachine } from '../../../machines/power/powerAction.machine';
import { POWER_TEXTS } from '../../../src/protocol/powerTexts';
import { watchDeviceOnline } from '../../../src/console/features/power/actors';
import { ch } from '../../../src/console/features/power/languages/ch';
import { de } from '../../../src/console/features/power/languages/de';
import { en } from '../../../src/console/features/power/languages/en';
import { es } from '../../../src/console/features/power/languages/es';
import { fr } from '../../../src/console/features/power/languages/fr';
import { jp } from '../../../src/console/features/power/languages/jp';
import { actionToView, powerToView, textKeyOf } from '../../../src/console/features/power/selectors';
import { powerCommands } from '../../../src/console/features/power/api';

const flat = (o: object, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) =>
    typeof v === 'object' && v ? flat(v as object, `${prefix}${k}.`) : [`${prefix}${k}`],
  );

describe('power texts', () => {
  it('keeps the §5/§8 texts verbatim in English and gives every key in all six languages', () => {
    for (const [k, english] of Object.entries(POWER_TEXTS)) {
      expect(en.texts[k as keyof typeof en.texts]).toBe(english);
      expect(textKeyOf(english)).toBe(`power.texts.${k}`);
    }
    for (const [k, english] of Object.entries(POWER_FLOW_TEXTS)) {
      expect(en.flow[k as keyof typeof en.flow]).toBe(english);
      expect(textKeyOf(english)).toBe(`power.flow.${k}`);
    }
    expect(textKeyOf('sudo: the device said no')).toBeNull();
    const keys = flat(en).sort();
    for (const lang of [ch, es, jp, de, fr]) {
      expect(flat(lang).sort()).toEqual(keys);
      for (const text of Object.values(lang.texts)) expect(text.length).toBeGreaterThan(0);
    }
  });
});

describe('power selectors', () => {
  it('shows an action step by step and the registry per device', () => {
    const action = createActor(powerActionMachine, {
      input: { deviceId: 'dev-1', deviceName: 'Box', action: 'reboot' },
    }).start();
    expect(actionToView(action.getSnapshot())).toMatchObject({
      action: 'reboot',
      step: 'confirming',
      busy: false,
      ended: false,
      sudoOpen: false,
    });
    action.send({ type: 'power.cancel' });
    expect(actionToView(action.getSnapshot())).toMatchObject({ step: 'cancelled', ended: true });

    const power = createActor(powerMachine).start();
    expect(powerToView(power.getSnapshot(), 'dev-1')).toEqual({ action: null, running: false, sudo: null });
    power.send({ type: 'power.start', deviceId: 'dev-1', deviceName: 'Box', action: 'shutdown' });
    const view = powerToView(power.getSnapshot(), 'dev-1');
    expect(view.running).toBe(true);
    expect(actionToView(view.action!.getSnapshot())).toMatchObject({
      action: 'shutdown',
      step: 'confirming',
    });
    power.stop();
  });
});

/** A stand-in device connection: 'open' or 'reconnecting' on command. */
const connectionMachine = createMachine({
  initial: 'open',
  states: { open: { on: { drop: 'reconnecting' } }, reconnecting: { on: { back: 'open' } } },
});

/** A stand-in device pool holding connections by device id. */
const poolMachine = setup({
  types: {
    context: {} as { connections: Record<string, AnyActorRef> },
    events: {} as { type: 'add'; deviceId: string } | { type: 'remove'; deviceId: string },
  },
}).createMachine({
  context: { connections: {} },
  on: {
    add: {
      actions: assign({
        connections: ({ context, event, spawn }) => ({
          ...context.connections,
          [event.deviceId]: spawn(connectionMachine),
        }),
      }),
    },
  },
});

describe('presence from the device pool', () => {
  it('reports online when the connection opens and offline while it is down or gone', () => {
    const pool = createActor(poolMachine).start();
    const seen: boolean[] = [];
    const stop = watchDeviceOnline({ get: (id) => (id === 'devicePool' ? pool : undefined) }, 'dev-1', (o) =>
      seen.push(o),
    );
    expect(seen).toEqual([false]);
    pool.send({ type: 'add', deviceId: 'dev-1' });
    expect(seen).toEqual([false, true]);
    const conn = pool.getSnapshot().context.connections['dev-1']!;
    conn.send({ type: 'drop' });
    conn.send({ type: 'back' });
    expect(seen).toEqual([false, true, false, true]);
    stop();
    conn.send({ type: 'drop' });
    expect(seen).toEqual([false, true, false, true]);
  });

  it('reports offline when there is no device pool', () => {
    const seen: boolean[] = [];
    watchDeviceOnline({ get: () => undefined }, 'dev-1', (o) => seen.push(o))();
    expect(seen).toEqual([false]);
  });
});

describe('power commands', () => {
  it('sends each action as its §7 command, the password only when given', async () => {
    const calls: unknown[] = [];
    const call = (async (deviceId: string, process: string, payload: unknown) => {
      calls.push([deviceId, process, payload]);
      return {};
    }) as never;
    const c = powerCommands(call);
    await c.send('d', 'reboot', 'pw');
    await c.send('d', 'shutdown', null);
    await c.send('d', 'forceShutdown', null);
    await c.send('d', 'restartClient', 'ignored');
    await c.checkSudo('d', 'pw', true);
    await c.removeSaved('d');
    await c.sudoStatus('d');
    expect(calls).toEqual([
      ['d', 'restartDevice', { password: 'pw' }],
      ['d', 'shutDownDevice', {}],
      ['d', 'force-shut-down', {}],
      ['d', 'restartItself', {}],
      ['d', 'check-sudo', { password: 'pw', save: true }],
      ['d', 'remove-saved-sudo', {}],
      ['d', 'check-sudo-saved', {}],
    ]);
  });
});
