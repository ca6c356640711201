import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, SimulatedClock } from 'xstate';
import {
  DEVICE_CONNECTION_TEXTS,
  deviceConnectionMachine,
  reconnectDelayMs,
  type DeviceInfo,
  type DeviceStatusReport,
  type HealthSample,
} from '../../../machines/devices/deviceConnection.machine';
import type { DialogEmitted } from '../../../machines/notifications/emitted';
import { DEVICE_HEALTH_INTERVAL_MS, DEVICE_PING_TIMEOUT_MS } from '../../../src/protocol/constants';
import { deferred, flush, makeCamera, makeDevice } from '../machines/fixtures';

const device = makeDevice(1);
const info: DeviceInfo = {
  clientVersion: '1.2.3',
  cameras: [makeCamera(device.device_id)],
  x86Info: null,
  jtop: null,
};
const sample: HealthSample = {
  health: { status: 'ok', uptime_s: 10, streams: 0 },
  usage: { cpu: 5, memory_used_mb: 100, memory_total_mb: 1000, gpus: [], temperature_c: null },
};

interface Options {
  /** Answer of the n-th ping (0-based): 'reply' answers at once, 'silent' never answers. */
  ping: (n: number) => 'reply' | 'silent';
  exists?: boolean;
  openLink?: () => Promise<{ openedAt: number }>;
}

function start(options: Options) {
  const clock = new SimulatedClock();
  const calls = { ping: 0, exist: 0, linkClosedBy: [] as string[], sample: 0 };
  let closeFromDevice: ((reason: string) => void) | null = null;
  let presence: ((exists: boolean) => void) | null = null;
  const machine = deviceConnectionMachine.provide({
    actors: {
      openLink: fromPromise(options.openLink ?? (async () => ({ openedAt: 42 }))),
      watchLink: fromCallback(({ sendBack }) => {
        closeFromDevice = (reason) => sendBack({ type: 'device.link.closed', reason });
        return () => calls.linkClosedBy.push('watch clean-up');
      }),
      watchPresence: fromCallback(({ sendBack }) => {
        presence = (exists) => sendBack({ type: 'device.presence', exists });
        return () => {
          presence = null;
        };
      }),
      pingDevice: fromPromise(async () => {
        const n = calls.ping++;
        if (options.ping(n) === 'reply') return { rttMs: 3 };
        return new Promise<{ rttMs: number }>(() => undefined);
      }),
      checkDeviceExists: fromPromise(async () => {
        calls.exist++;
        return options.exists ?? false;
      }),
      loadDeviceInfo: fromPromise(async () => info),
      sampleHealth: fromPromise(async () => {
        calls.sample++;
        return sample;
      }),
    },
    actions: { closeLink: () => calls.linkClosedBy.push('closeLink') },
  });
  const statuses: string[] = [];
  const pool = createActor(
    fromCallback<DeviceStatusReport>(({ receive }) => {
      receive((e) => {
        if (e.type === 'device.status') statuses.push(e.status);
      });
    }),
  ).start();
  const actor = createActor(machine, { input: { device, reportTo: pool }, clock });
  const dialogs: DialogEmitted[] = [];
  actor.on('dialog', (d) => dialogs.push(d));
  actor.start();
  return {
    actor,
    clock,
    calls,
    dialogs,
    reports: () => [...statuses],
    closeFromDevice: (reason: string) => closeFromDevice?.(reason),
    presence: (exists: boolean) => presence?.(exists),
  };
}

describe('deviceConnection', () => {
  it('opens the link and fetches client version, cameras and health once open', async () => {
    const { actor, calls } = start({ ping: () => 'reply' });
    actor.send({ type: 'device.open' });
    await flush();
    const snap = actor.getSnapshot();
    expect(snap.matches('open')).toBe(true);
    expect(snap.context.openedAt).toBe(42);
    expect(snap.context.clientVersion).toBe('1.2.3');
    expect(snap.context.cameras).toHaveLength(1);
    expect(snap.context.rttMs).toBe(3);
    expect(snap.context.health?.status).toBe('ok');
    expect(calls.sample).toBe(1);
  });

  it('pings again every health interval', async () => {
    const { actor, clock, calls } = start({ ping: () => 'reply' });
    actor.send({ type: 'device.open' });
    await flush();
    expect(calls.ping).toBe(1);
    clock.increment(DEVICE_HEALTH_INTERVAL_MS);
    await flush();
    expect(calls.ping).toBe(2);
    expect(calls.sample).toBe(2);
  });

  it('asks signalling whether the device exists when a ping gets no reply within 5 s', async () => {
    const { actor, clock, calls } = start({ ping: () => 'silent', exists: true });
    actor.send({ type: 'device.open' });
    await flush();
    clock.increment(DEVICE_PING_TIMEOUT_MS - 1);
    await flush();
    expect(calls.exist).toBe(0);
    clock.increment(1);
    await flush();
    expect(calls.exist).toBe(1);
  });

  it('shows "Device is not reachable" and reconnects by itself when the device does not exist', async () => {
    const { actor, clock, dialogs, calls } = start({ ping: () => 'silent', exists: false });
    actor.send({ type: 'device.open' });
    await flush();
    clock.increment(DEVICE_PING_TIMEOUT_MS);
    await flush();
    expect(actor.getSnapshot().matches('reconnecting')).toBe(true);
    expect(dialogs).toEqual([
      {
        type: 'dialog',
        title: DEVICE_CONNECTION_TEXTS.notReachableTitle,
        message: DEVICE_CONNECTION_TEXTS.notReachableMessage,
      },
    ]);
    expect(calls.linkClosedBy).toContain('closeLink');
  });

  it('opens a new link (§4 "send the start request") when the device still exists but did not answer', async () => {
    const { actor, clock, calls } = start({ ping: (n) => (n === 0 ? 'silent' : 'reply'), exists: true });
    actor.send({ type: 'device.open' });
    await flush();
    clock.increment(DEVICE_PING_TIMEOUT_MS);
    await flush();
    // The silent link is closed and the actor reconnects, without the "not reachable" dialog.
    expect(calls.linkClosedBy).toContain('closeLink');
    expect(actor.getSnapshot().matches('reconnecting')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
    clock.increment(reconnectDelayMs(0));
    await flush();
    expect(actor.getSnapshot().matches('open')).toBe(true);
    expect(calls.ping).toBe(2);
  });

  it('errors with the §8 text when the link does not open within the connection time-out', async () => {
    const { actor, clock } = start({
      ping: () => 'reply',
      openLink: () => deferred<{ openedAt: number }>().promise,
    });
    actor.send({ type: 'device.open' });
    await flush();
    expect(actor.getSnapshot().value).toBe('opening');
    clock.increment(5_000);
    await flush();
    expect(actor.getSnapshot().value).toBe('errored');
    expect(actor.getSnapshot().context.error).toBe(DEVICE_CONNECTION_TEXTS.cannotConnect);
  });

  it('reconnects by itself after the device closed the link, with a growing back-off', async () => {
    let opens = 0;
    const { actor, clock, closeFromDevice, reports } = start({
      ping: () => 'reply',
      // First open works, the next two fail (agent restarting), the fourth works.
      openLink: async () => {
        opens++;
        if (opens === 2 || opens === 3) throw new Error('Device is not connected to signalling.');
        return { openedAt: opens };
      },
    });
    actor.send({ type: 'device.open' });
    await flush();
    closeFromDevice('The device closed the link.');
    await flush();
    expect(actor.getSnapshot().matches('reconnecting')).toBe(true);
    expect(actor.getSnapshot().hasTag('reconnecting')).toBe(true);
    clock.increment(reconnectDelayMs(0));
    await flush();
    expect(opens).toBe(2);
    clock.increment(reconnectDelayMs(1) - 1);
    await flush();
    expect(opens).toBe(2);
    clock.increment(1);
    await flush();
    expect(opens).toBe(3);
    clock.increment(reconnectDelayMs(2));
    await flush();
    expect(opens).toBe(4);
    expect(actor.getSnapshot().matches('open')).toBe(true);
    expect(actor.getSnapshot().context.attempts).toBe(0);
    expect(reports()).toEqual(['opening', 'open', 'reconnecting', 'open']);
  });

  it('never waits more than 5 s between attempts', () => {
    expect(reconnectDelayMs(0)).toBe(500);
    expect(reconnectDelayMs(3)).toBe(4_000);
    expect(reconnectDelayMs(20)).toBe(5_000);
  });

  it('tries at once when signalling says the device is back after being gone', async () => {
    let opens = 0;
    const { actor, closeFromDevice, presence } = start({
      ping: () => 'reply',
      openLink: async () => ({ openedAt: ++opens }),
    });
    actor.send({ type: 'device.open' });
    await flush();
    closeFromDevice('The device closed the link.');
    await flush();
    presence(true); // never seen absent: no shortcut
    await flush();
    expect(opens).toBe(1);
    presence(false);
    presence(true);
    await flush();
    expect(opens).toBe(2);
    expect(actor.getSnapshot().matches('open')).toBe(true);
  });

  it('stops reconnecting when the user disconnects', async () => {
    const { actor, clock, closeFromDevice, calls } = start({ ping: () => 'reply' });
    actor.send({ type: 'device.open' });
    await flush();
    closeFromDevice('The device closed the link.');
    await flush();
    actor.send({ type: 'device.close' });
    await flush();
    clock.increment(10_000);
    await flush();
    expect(actor.getSnapshot().value).toBe('closed');
    expect(calls.linkClosedBy.filter((x) => x === 'closeLink').length).toBeGreaterThanOrEqual(2);
  });

  it('says "Device disconnected" while reconnecting, and retries at once on device.retry', async () => {
    const { actor, closeFromDevice } = start({ ping: () => 'reply' });
    actor.send({ type: 'device.open' });
    await flush();
    closeFromDevice('The device closed the link.');
    await flush();
    expect(actor.getSnapshot().matches('reconnecting')).toBe(true);
    expect(actor.getSnapshot().context.error).toBe(DEVICE_CONNECTION_TEXTS.disconnected);
    actor.send({ type: 'device.retry' });
    await flush();
    expect(actor.getSnapshot().matches('open')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
