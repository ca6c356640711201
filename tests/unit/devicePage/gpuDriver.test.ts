/** The GPU driver check on the device (get-gpu-driver-version; §5 "GPU Driver check is just for x86 devices."). */
import { describe, expect, it } from 'vitest';
import { healthHandlers } from '../../../src/agent/commands/health';
import type { CommandContext } from '../../../src/agent/commands/context';
import { GPU_DRIVER_X86_ONLY } from '../../../src/protocol/health';

const ctx = (kind: 'jetson' | 'x86', gpus: { name: string; driver_version: string | null }[]) =>
  ({ backend: { kind, systemInformation: async () => ({ gpus }) } }) as unknown as CommandContext;
const check = (c: CommandContext) => healthHandlers['get-gpu-driver-version']({}, c);

describe('get-gpu-driver-version', () => {
  it('answers the driver an x86 box reports, or null when none answers', async () => {
    await expect(check(ctx('x86', [{ name: 'RTX A2000', driver_version: '550.54.15' }]))).resolves.toEqual({
      driver_version: '550.54.15',
      gpus: ['RTX A2000'],
    });
    await expect(check(ctx('x86', []))).resolves.toEqual({ driver_version: null, gpus: [] });
  });

  it('refuses on a Jetson with the §5 text', async () => {
    await expect(check(ctx('jetson', []))).rejects.toMatchObject({
      code: 'not_x86',
      message: GPU_DRIVER_X86_ONLY,
    });
  });
});
