/**
 * Model-based paths of a settings form (machines/deviceSettings/settingsForm.machine.ts) on the real machine:
 * loading → editing (a valid and an out-of-range CPU threshold) → saving → read back / refused (the device's
 * error kept), Reset, reload after a failed read. The section is alert-metrics-settings-info.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import {
  settingsFormMachine,
  type SaveChangesInput,
  type SettingsFormInput,
} from '../../../machines/deviceSettings/settingsForm.machine';
import type { DeviceSettingsInfo } from '../../../src/protocol/deviceSettings';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof settingsFormMachine>;

const section = (cpuPercent: number): DeviceSettingsInfo => ({
  infoType: 'alert-metrics-settings-info',
  info: { enabled: true, intervalS: 60, cpuPercent, gpuPercent: 90, memoryPercent: 90, temperatureC: 80 },
});
const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output }) as EventObject;
const fail = (id: string, code: string, message: string) =>
  ({ type: `xstate.error.actor.${id}`, error: Object.assign(new Error(message), { code }) }) as EventObject;

/** Sample events: CPU threshold 55 (valid) or 150 (refused before sending); reads answer; saves pass or fail. */
function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'form.set':
      return [
        { type, field: 'cpuPercent', value: '55' },
        { type, field: 'cpuPercent', value: '150' },
      ] as unknown as EventObject[];
    case 'xstate.done.actor.loadSection':
      return [done('loadSection', section(90))];
    case 'xstate.error.actor.loadSection':
      return [fail('loadSection', 'link_closed', 'The device is not connected.')];
    case 'xstate.done.actor.readBack':
      return [done('readBack', section(Number(s.context.values?.cpuPercent ?? 90)))];
    case 'xstate.error.actor.readBack':
      return [];
    case 'xstate.done.actor.saveChanges':
      return [done('saveChanges', undefined)];
    case 'xstate.error.actor.saveChanges':
      return [fail('saveChanges', 'failed', 'The settings could not be saved: disk full')];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.original?.cpuPercent ?? null,
    s.context.values?.cpuPercent ?? null,
    Object.keys(s.context.errors),
    s.context.showErrors,
    s.context.deviceError?.message ?? null,
  ]);

const input: SettingsFormInput = { deviceId: 'dev-1', infoType: 'alert-metrics-settings-info' };

describe('settings form (model-based paths)', () => {
  const model = createMachineTestModel(settingsFormMachine, {
    events: eventsFor,
    key,
    input,
    transitionCoverage: true,
  });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches saved (read back), refused (the device error shown) and errors shown before sending', () => {
    const ends = paths.map((p) => p.state);
    expect(ends.some((s) => s.matches({ editing: 'saved' }) && s.context.original?.cpuPercent === '55')).toBe(
      true,
    );
    expect(
      ends.some(
        (s) => s.matches({ editing: 'refused' }) && s.context.deviceError?.message.includes('disk full'),
      ),
    ).toBe(true);
    expect(ends.some((s) => s.context.showErrors && s.context.errors.cpuPercent?.key === 'range')).toBe(true);
    // An out-of-range value never reaches saving.
    for (const p of paths) {
      for (const step of p.steps) {
        if (step.state.matches('saving')) expect(step.state.context.errors).toEqual({});
      }
    }
  });

  it('follows every modelled path on the real machine', async () => {
    const start = (driver: Driver) =>
      createActor(
        settingsFormMachine.provide({
          actors: {
            loadSection: driver.promise<DeviceSettingsInfo, SettingsFormInput>('loadSection'),
            saveChanges: driver.promise<void, SaveChangesInput>('saveChanges'),
          },
        }),
        { input, clock: driver.clock },
      ).start();
    // Both reads (loadSection, readBack) run the provided loadSection actor.
    const custom = (driver: Driver, event: EventObject) => {
      if (event.type === 'xstate.done.actor.readBack') {
        driver.settle('loadSection', '', { output: (event as { output?: unknown }).output });
        return true;
      }
      return false;
    };
    const steps = await runPaths(paths, start, key, custom);
    expect(steps).toBeGreaterThan(paths.length);
  });
});
