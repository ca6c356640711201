import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import {
  deviceConnectionMachine,
  type DeviceConnectionEvent,
  type DeviceInfo,
  type DeviceRef,
  RECONNECT_BASE_MS,
} from '../../../machines/devices/deviceConnection.machine';
import { devicePoolMachine } from '../../../machines/devices/devicePool.machine';
import type { Device } from '../../../src/protocol/rest';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof devicePoolMachine>;

const device = (n: number): Device => ({
  id: `row-${n}`,
  decrypted_id: `dev-${n}`,
  device_id: `dev-${n}`,
  label: `Device ${n}`,
  client_name: 'sim',
  api_url: null,
  is_active: true,
  device_params: '{}',
  client_version: null,
  jetpack: null,
  chipset_id: '0',
  group_id: null,
  created_at: '2025-01-01T00:00:00.000Z',
});
/** Three devices and a limit of two links, so eviction of the oldest is part of the model. */
const devices = [device(1), device(2), device(3)];
const LIMIT = 2;

const key = (s: Snap) =>
  JSON.stringify([
    s.context.order,
    Object.keys(s.context.connections).sort(),
    Object.entries(s.context.status).sort(([a], [b]) => a.localeCompare(b)),
  ]);

/**
 * Events per state: connect/disconnect each device, reset, and — standing in for what a connection actor
 * reports — 'open' or 'errored' for a link that is opening, 'reconnecting' for an open one whose link the
 * device closed, and 'open' again when a reconnecting link reopens.
 */
function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'device.connect':
      return devices.map((d) => ({ type, device: d }) as EventObject);
    case 'device.disconnect':
      return devices.map((d) => ({ type, deviceId: d.device_id }) as EventObject);
    case 'device.status':
      return Object.entries(s.context.status).flatMap(([deviceId, status]) => {
        const label = `Device ${deviceId.slice(4)}`;
        if (status === 'opening') {
          return [
            { type, deviceId, label, status: 'open' },
            { type, deviceId, label, status: 'errored' },
          ] as unknown as EventObject[];
        }
        if (status === 'open')
          return [{ type, deviceId, label, status: 'reconnecting' }] as unknown as EventObject[];
        if (status === 'reconnecting')
          return [{ type, deviceId, label, status: 'open' }] as unknown as EventObject[];
        return [];
      });
    default:
      return undefined;
  }
}

const model = createMachineTestModel(devicePoolMachine, { events: eventsFor, key, input: { limit: LIMIT } });

function start(driver: Driver) {
  const byDevice = (input: DeviceRef) => input.deviceId;
  return createActor(
    devicePoolMachine.provide({
      actors: {
        deviceConnection: deviceConnectionMachine.provide({
          actors: {
            openLink: driver.promise<{ openedAt: number }, DeviceRef>('openLink', byDevice),
            watchLink: driver.callback<DeviceConnectionEvent, DeviceRef>('watchLink', byDevice),
            watchPresence: driver.callback<DeviceConnectionEvent, DeviceRef>('watchPresence', byDevice),
            pingDevice: driver.promise<{ rttMs: number }, DeviceRef>('pingDevice', byDevice),
            loadDeviceInfo: driver.promise<DeviceInfo, DeviceRef>('loadDeviceInfo', byDevice),
          },
        }),
      },
    }),
    { input: { limit: LIMIT }, clock: driver.clock },
  ).start();
}

/** A status step is produced by the real connection actor: its link opens, fails, drops or reopens. */
function throughTheChild(driver: Driver, event: EventObject): boolean {
  if (event.type !== 'device.status') return false;
  const { deviceId, status } = event as unknown as { deviceId: string; status: string };
  if (status === 'open') {
    // Opening: the attempt is pending. Reconnecting: the first retry starts after the back-off.
    try {
      driver.settle('openLink', deviceId, { output: { openedAt: 1 } });
    } catch {
      driver.clock.increment(RECONNECT_BASE_MS);
      driver.settle('openLink', deviceId, { output: { openedAt: 2 } });
    }
  } else if (status === 'errored') driver.settle('openLink', deviceId, { error: new Error('no answer') });
  else
    driver.sendBack('watchLink', deviceId, {
      type: 'device.link.closed',
      reason: 'closed by the device',
    } as EventObject);
  return true;
}

describe('devicePool (model-based paths)', () => {
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('includes states where the oldest link was evicted at the limit', () => {
    // dev-1 connected first, then dev-2 and dev-3: dev-1 is gone, the newest two remain.
    expect(paths.some((p) => JSON.stringify(p.state.context.order) === '["dev-2","dev-3"]')).toBe(true);
    expect(paths.every((p) => p.state.context.order.length <= LIMIT)).toBe(true);
  });

  it('follows every modelled path on the real machine, its connection actors included', async () => {
    const steps = await runPaths(paths, start, key, throughTheChild);
    expect(steps).toBeGreaterThan(paths.length);
  });
});
