import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import {
  deviceConnectionMachine,
  type DeviceInfo,
  type DeviceRef,
} from '../../../machines/devices/deviceConnection.machine';
import { deviceActorId, devicePoolMachine } from '../../../machines/devices/devicePool.machine';
import { PEER_CONNECTION_LIMIT } from '../../../src/protocol/constants';
import { flush, makeDevice } from '../machines/fixtures';

function startPool(openLink: 'open' | 'fail' = 'open') {
  const closedLinks: string[] = [];
  const machine = devicePoolMachine.provide({
    actors: {
      deviceConnection: deviceConnectionMachine.provide({
        actors: {
          openLink: fromPromise(async ({ input }) => {
            if (openLink === 'fail') throw new Error(`no route to ${input.deviceId}`);
            return { openedAt: 1 };
          }),
          watchLink: fromCallback(
            ({ input }) =>
              () =>
                closedLinks.push(input.deviceId),
          ),
          pingDevice: fromPromise(() => new Promise<{ rttMs: number }>(() => undefined)),
          loadDeviceInfo: fromPromise<DeviceInfo, DeviceRef>(() => new Promise(() => undefined)),
        },
      }),
    },
  });
  const pool = createActor(machine, { input: {} });
  pool.start();
  return { pool, closedLinks };
}

describe('devicePool', () => {
  it('spawns one connection actor per device, named device-<device_id>, and opens it', async () => {
    const { pool } = startPool();
    const device = makeDevice(1);
    pool.send({ type: 'device.connect', device });
    pool.send({ type: 'device.connect', device });
    await flush();
    const { connections, order } = pool.getSnapshot().context;
    expect(Object.keys(connections)).toEqual([device.device_id]);
    expect(connections[device.device_id]!.id).toBe(deviceActorId(device.device_id));
    expect(connections[device.device_id]!.getSnapshot().matches('open')).toBe(true);
    expect(order).toEqual([device.device_id]);
  });

  it(`closes the oldest link when the ${PEER_CONNECTION_LIMIT + 1}st device connects`, async () => {
    const { pool, closedLinks } = startPool();
    const devices = Array.from({ length: PEER_CONNECTION_LIMIT + 1 }, (_, i) => makeDevice(i));
    for (const device of devices.slice(0, PEER_CONNECTION_LIMIT))
      pool.send({ type: 'device.connect', device });
    await flush();
    const oldest = pool.getSnapshot().context.connections[devices[0]!.device_id]!;
    expect(pool.getSnapshot().context.order).toHaveLength(PEER_CONNECTION_LIMIT);

    pool.send({ type: 'device.connect', device: devices[PEER_CONNECTION_LIMIT]! });
    await flush();

    const { connections, order } = pool.getSnapshot().context;
    expect(order).toHaveLength(PEER_CONNECTION_LIMIT);
    expect(order[0]).toBe(devices[1]!.device_id);
    expect(order.at(-1)).toBe(devices[PEER_CONNECTION_LIMIT]!.device_id);
    expect(connections[devices[0]!.device_id]).toBeUndefined();
    expect(oldest.getSnapshot().status).toBe('stopped');
    expect(closedLinks).toEqual([devices[0]!.device_id]);
  });

  it('removes an errored connection from the connected list but keeps it for a retry', async () => {
    const { pool } = startPool('fail');
    const device = makeDevice(3);
    pool.send({ type: 'device.connect', device });
    await flush();
    const { connections, order } = pool.getSnapshot().context;
    expect(order).toEqual([]);
    expect(connections[device.device_id]!.getSnapshot().value).toBe('errored');
  });

  it('closes a link on device.disconnect and forgets it', async () => {
    const { pool, closedLinks } = startPool();
    const device = makeDevice(4);
    pool.send({ type: 'device.connect', device });
    await flush();
    pool.send({ type: 'device.disconnect', deviceId: device.device_id });
    await flush();
    expect(pool.getSnapshot().context.connections).toEqual({});
    expect(pool.getSnapshot().context.order).toEqual([]);
    expect(closedLinks).toEqual([device.device_id]);
  });
});
