/**
 * The device page machine (machines/devicePage/devicePage.machine.ts), model-based: every combination of its
 * regions (record, presence, token, removal, GPU check) reached by shortest paths and followed on the real
 * machine with fake actors and a simulated clock (the 30 s presence poll).
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import {
  DELETE_FAILED_TEXT,
  devicePageMachine,
  GPU_X86_ONLY_TEXT,
  TOKEN_MISSING_TEXT,
  type GpuDriver,
} from '../../../machines/devicePage/devicePage.machine';
import type { Device } from '../../../src/protocol/devices';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof devicePageMachine>;

const device = (chipset: string): Device => ({
  id: chipset === '0' ? '1' : '2',
  decrypted_id: 'x',
  device_id: chipset === '0' ? 'dev-x86' : 'dev-jetson',
  label: chipset === '0' ? 'Box' : 'Orin',
  client_name: 'edge',
  api_url: null,
  is_active: true,
  device_params: '{}',
  client_version: null,
  jetpack: null,
  chipset_id: chipset,
  group_id: null,
  created_at: '2026-11-23T00:00:00Z',
});
const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output }) as EventObject;
const failed = (id: string) =>
  ({ type: `xstate.error.actor.${id}`, error: new Error(`${id} failed`) }) as EventObject;

function events(s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'page.open':
      return [{ type, deviceId: s.context.deviceId ? 'dev-other' : 'dev-x86' } as EventObject];
    case 'xstate.done.actor.loadDevice':
      return [done('loadDevice', device('0')), done('loadDevice', device('7')), done('loadDevice', null)];
    case 'xstate.error.actor.loadDevice':
      return [failed('loadDevice')];
    case 'xstate.done.actor.checkPresence':
      return [done('checkPresence', true)];
    case 'xstate.error.actor.checkPresence':
      return [failed('checkPresence')];
    case 'xstate.done.actor.generateToken':
      return [done('generateToken', 'tok-123'), done('generateToken', '')];
    case 'xstate.error.actor.generateToken':
      return [failed('generateToken')];
    case 'xstate.done.actor.deleteDevice':
      return [done('deleteDevice', undefined)];
    case 'xstate.error.actor.deleteDevice':
      return [failed('deleteDevice')];
    case 'xstate.done.actor.checkGpuDriver':
      return [
        done('checkGpuDriver', { driver_version: '550.54.15', gpus: ['RTX A2000'] } satisfies GpuDriver),
      ];
    case 'xstate.error.actor.checkGpuDriver':
      return [failed('checkGpuDriver')];
    default:
      return undefined;
  }
}

/** The state a region test tells apart: the record, one other region, and what that region shows. */
const regionKey =
  (region: 'presence' | 'token' | 'removal' | 'gpu') =>
  (s: Snap): string => {
    if (s.matches('closed')) return 'closed';
    const value = (s.value as { open: Record<string, string> }).open;
    const c = s.context;
    const shown = {
      presence: [c.online],
      token: [c.token, c.tokenError],
      removal: [c.deleteError],
      gpu: [c.gpuError, !!c.gpu],
    }[region];
    return JSON.stringify([value.record, c.device?.chipset_id ?? null, value[region], ...shown]);
  };

describe('device page (model-based paths, one region at a time beside the record)', () => {
  const start = (driver: Driver) =>
    createActor(
      devicePageMachine.provide({
        actors: {
          loadDevice: driver.promise<Device | null, { deviceId: string }>('loadDevice'),
          checkPresence: driver.promise<boolean, { deviceId: string }>('checkPresence'),
          generateToken: driver.promise<string, { id: string }>('generateToken'),
          deleteDevice: driver.promise<void, { id: string }>('deleteDevice'),
          checkGpuDriver: driver.promise<GpuDriver, { deviceId: string }>('checkGpuDriver'),
        },
      }),
      { clock: driver.clock },
    ).start();

  for (const region of ['presence', 'token', 'removal', 'gpu'] as const) {
    const key = regionKey(region);
    const paths = createMachineTestModel(devicePageMachine, { events, key }).getShortestPaths({
      allowDuplicatePaths: true,
    });
    it(`${region}: follows every modelled path on the real machine`, { timeout: 120_000 }, async () => {
      expect(await runPaths(paths, start, key)).toBeGreaterThan(paths.length);
    });
    if (region === 'presence') {
      it('record: reaches ready, notFound and failed; presence answers', () => {
        const ends = paths.map((p) => p.state);
        for (const tag of ['ready', 'notFound', 'failed'])
          expect(
            ends.some((s) => s.hasTag(tag)),
            tag,
          ).toBe(true);
        expect(ends.some((s) => s.context.online === true)).toBe(true);
      });
    }
    if (region === 'token') {
      it('token: shown once, or the §5 text when none came back', () => {
        const ends = paths.map((p) => p.state);
        expect(ends.some((s) => s.hasTag('tokenShown') && s.context.token === 'tok-123')).toBe(true);
        expect(ends.some((s) => s.context.tokenError === TOKEN_MISSING_TEXT)).toBe(true);
      });
    }
    if (region === 'removal') {
      it('removal: deleted, or the §8 failure text', () => {
        const ends = paths.map((p) => p.state);
        expect(ends.some((s) => s.hasTag('deleted'))).toBe(true);
        expect(ends.some((s) => s.context.deleteError === DELETE_FAILED_TEXT)).toBe(true);
      });
    }
    if (region === 'gpu') {
      it('gpu: an x86 device is asked; a Jetson never is (§5 text instead)', () => {
        const ends = paths.map((p) => p.state);
        expect(ends.some((s) => s.hasTag('gpuChecking') && s.context.device?.chipset_id === '0')).toBe(true);
        const jetsonAsked = paths.some((p) =>
          p.steps.some(
            (step) =>
              step.event.type === 'gpu.check' &&
              step.state.hasTag('gpuChecking') &&
              step.state.context.device?.chipset_id !== '0',
          ),
        );
        expect(jetsonAsked).toBe(false);
        expect(ends.some((s) => s.context.gpuError === GPU_X86_ONLY_TEXT)).toBe(true);
        expect(ends.some((s) => s.context.gpu?.driver_version === '550.54.15')).toBe(true);
      });
    }
  }
});
