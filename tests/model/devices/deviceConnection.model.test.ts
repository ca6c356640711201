import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import {
  deviceConnectionMachine,
  type DeviceConnectionEvent,
  type DeviceInfo,
  type DeviceRef,
  type HealthSample,
} from '../../../machines/devices/deviceConnection.machine';
import type { Device } from '../../../src/protocol/rest';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof deviceConnectionMachine>;

const device: Device = {
  id: 'row-1',
  decrypted_id: 'dev-0000000000000001',
  device_id: 'dev-0000000000000001',
  label: 'Device 1',
  client_name: 'sim',
  api_url: null,
  is_active: true,
  device_params: '{}',
  client_version: '1.0.0',
  jetpack: '6.0',
  chipset_id: '1',
  group_id: null,
  created_at: '2025-01-01T00:00:00.000Z',
};
const info: DeviceInfo = { clientVersion: '1.0.0', cameras: [], x86Info: null, jtop: null };
const sample: HealthSample = {
  health: { status: 'ok', uptime_s: 1, streams: 0 },
  usage: { cpu: 1, memory_used_mb: 1, memory_total_mb: 2, gpus: [], temperature_c: null },
};
const fail = (type: string): EventObject => ({ type, error: new Error('failed') }) as EventObject;

const samples: Record<string, EventObject[]> = {
  'device.link.closed': [
    { type: 'device.link.closed', reason: 'The device closed the link.' } as EventObject,
  ],
  'xstate.done.actor.openLink': [
    { type: 'xstate.done.actor.openLink', output: { openedAt: 1 } } as EventObject,
  ],
  'xstate.error.actor.openLink': [fail('xstate.error.actor.openLink')],
  'xstate.done.actor.loadDeviceInfo': [
    { type: 'xstate.done.actor.loadDeviceInfo', output: info } as EventObject,
  ],
  'xstate.error.actor.loadDeviceInfo': [fail('xstate.error.actor.loadDeviceInfo')],
  'xstate.done.actor.pingDevice': [
    { type: 'xstate.done.actor.pingDevice', output: { rttMs: 2 } } as EventObject,
  ],
  'xstate.error.actor.pingDevice': [fail('xstate.error.actor.pingDevice')],
  'xstate.done.actor.sampleHealth': [
    { type: 'xstate.done.actor.sampleHealth', output: sample } as EventObject,
  ],
  'xstate.error.actor.sampleHealth': [fail('xstate.error.actor.sampleHealth')],
  'xstate.done.actor.checkDeviceExists': [
    { type: 'xstate.done.actor.checkDeviceExists', output: true } as EventObject,
    { type: 'xstate.done.actor.checkDeviceExists', output: false } as EventObject,
  ],
  'xstate.error.actor.checkDeviceExists': [fail('xstate.error.actor.checkDeviceExists')],
  'device.presence': [
    { type: 'device.presence', exists: false } as EventObject,
    { type: 'device.presence', exists: true } as EventObject,
  ],
};

const key = (s: Snap) =>
  JSON.stringify([s.value, s.context.error, s.context.sawAbsent, Math.min(s.context.attempts, 2)]);

const model = createMachineTestModel(deviceConnectionMachine, {
  events: (_, type) => samples[type],
  key,
  input: { device },
  transitionCoverage: true,
});

function start(driver: Driver) {
  return createActor(
    deviceConnectionMachine.provide({
      actors: {
        openLink: driver.promise<{ openedAt: number }, DeviceRef>('openLink'),
        watchLink: driver.callback<DeviceConnectionEvent, DeviceRef>('watchLink'),
        watchPresence: driver.callback<DeviceConnectionEvent, DeviceRef>('watchPresence'),
        pingDevice: driver.promise<{ rttMs: number }, DeviceRef>('pingDevice'),
        checkDeviceExists: driver.promise<boolean, DeviceRef>('checkDeviceExists'),
        loadDeviceInfo: driver.promise<DeviceInfo, DeviceRef>('loadDeviceInfo'),
        sampleHealth: driver.promise<HealthSample, DeviceRef>('sampleHealth'),
      },
    }),
    { input: { device }, clock: driver.clock },
  ).start();
}

describe('deviceConnection (model-based paths)', () => {
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches notConnected, opening, every open sub-state, closed and errored', () => {
    const values = new Set(paths.map((p) => JSON.stringify(p.state.value)));
    for (const v of ['"notConnected"', '"opening"', '"closed"', '"errored"']) expect(values).toContain(v);
    for (const r of ['waiting', 'attempting']) expect(values).toContain(JSON.stringify({ reconnecting: r }));
    for (const health of ['pinging', 'sampling', 'waiting', 'checkingPresence']) {
      expect([...values].some((v) => v.includes(`"health":"${health}"`))).toBe(true);
    }
    for (const infoState of ['loading', 'loaded', 'unavailable']) {
      expect([...values].some((v) => v.includes(`"info":"${infoState}"`))).toBe(true);
    }
  });

  it('follows every modelled path on the real machine', async () => {
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
  });
});
