/** Shared test data and helpers for machine tests (no network, no timers of their own). */
import type { DeviceCamera } from '../../../src/protocol/commands';
import type { Device, UserInfo } from '../../../src/protocol/rest';

export const user: UserInfo = {
  id: 'u1',
  email: 'demo@example.com',
  username: 'demo',
  bio: null,
  image: null,
  roles: ['user'],
};

/** Device number i ('dev-000…i'); chipset '0' (x86) unless given. */
export function makeDevice(i: number, chipsetId = '0'): Device {
  const id = `dev-${String(i).padStart(16, '0')}`;
  return {
    id: `row-${i}`,
    decrypted_id: id,
    device_id: id,
    label: `Device ${i}`,
    client_name: 'sim',
    api_url: null,
    is_active: true,
    device_params: '{}',
    client_version: '1.0.0',
    jetpack: null,
    chipset_id: chipsetId,
    group_id: null,
    created_at: '2025-01-01T00:00:00.000Z',
  };
}

export function makeCamera(deviceId: string, i = 0): DeviceCamera {
  return {
    id: `${deviceId}-cam${i}`,
    camera_id: `cam${i}`,
    uniqueCameraId: `${deviceId}-cam${i}`,
    unique_id: `u-cam${i}`,
    name: `Camera ${i}`,
    label: `Camera ${i}`,
    device_id: deviceId,
    camera_type: 'physical',
  };
}

/** Lets pending promise callbacks (fromPromise actors) run. */
export async function flush(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
}

/** A promise with its resolve/reject exposed. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
