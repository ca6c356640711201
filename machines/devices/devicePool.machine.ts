/**
 * Device pool — spec §4 "Device connection … closed or errored (removed from the connected list). At the
 * peer connection limit the oldest device is disconnected"; §9 "Peer connection limit 50".
 *
 * Spawns one `deviceConnection` actor per device (id `device-${device_id}`). `order` is the connected
 * list — device ids whose link is opening or open, oldest first. Opening a 51st link first closes and
 * removes the oldest. A connection that reports `closed` or `errored` leaves `order` but its actor stays in
 * `connections` so views can show the error and offer a retry (`device.connect` again retries it).
 *
 * Every status change and camera list is forwarded to the camera grid (systemId 'streams') when it exists,
 * so it can refuse cameras of unconnected devices (§5), find one physical camera on several devices (the
 * chooser), pause streams while their device reconnects and resume them when it is open again. A device
 * that is `reconnecting` stays in the connected list (its link is being restored, not given up).
 */
import { enqueueActions, setup, type ActorRefFrom } from 'xstate';
import { PEER_CONNECTION_LIMIT } from '../../src/protocol/constants';
import type { Device } from '../../src/protocol/rest';
import {
  deviceConnectionMachine,
  type DeviceCamerasReport,
  type DeviceConnectionStatus,
  type DeviceStatusReport,
} from './deviceConnection.machine';
import type { ConsoleEmitted } from '../notifications/emitted';
import { SYSTEM_IDS } from '../systemIds';

export type DeviceConnectionRef = ActorRefFrom<typeof deviceConnectionMachine>;

export interface DevicePoolContext {
  /** device_id → its connection actor (open, opening, closed or errored). */
  connections: Record<string, DeviceConnectionRef>;
  /** The connected list: device ids with a live (opening or open) link, oldest first. */
  order: string[];
  /** Last known state of each connection actor (from its `device.status` reports). */
  status: Record<string, DeviceConnectionStatus>;
  /** Most links kept open at once (§9: 50). */
  limit: number;
}

export interface DevicePoolInput {
  /** Overrides PEER_CONNECTION_LIMIT (tests, configuration). */
  limit?: number;
}

export type DevicePoolEvent =
  | { type: 'device.connect'; device: Device }
  | { type: 'device.disconnect'; deviceId: string }
  /** Root system, on sign-out: close every link and forget them. */
  | { type: 'pool.reset' }
  /** From a deviceConnection child. */
  | DeviceStatusReport
  | DeviceCamerasReport;

/** Actor id of a device's connection actor. */
export const deviceActorId = (deviceId: string): string => `device-${deviceId}`;

const without = (ids: string[], id: string): string[] => ids.filter((x) => x !== id);

export const devicePoolMachine = setup({
  types: {
    context: {} as DevicePoolContext,
    events: {} as DevicePoolEvent,
    input: {} as DevicePoolInput,
    emitted: {} as ConsoleEmitted,
  },
  actors: {
    deviceConnection: deviceConnectionMachine,
  },
  actions: {
    /** §4 §9: at the limit, close the oldest link first (its actor stops, which closes the link). */
    evictOldestAtLimit: enqueueActions(({ context, enqueue, system }) => {
      const evicted: string[] = [];
      let order = context.order;
      while (order.length >= context.limit && order.length > 0) {
        const oldest = order[0]!;
        evicted.push(oldest);
        order = order.slice(1);
        const ref = context.connections[oldest];
        if (ref) enqueue.stopChild(ref);
      }
      if (evicted.length === 0) return;
      enqueue.assign({
        order,
        connections: Object.fromEntries(
          Object.entries(context.connections).filter(([id]) => !evicted.includes(id)),
        ),
        status: Object.fromEntries(Object.entries(context.status).filter(([id]) => !evicted.includes(id))),
      });
      const streams = system.get(SYSTEM_IDS.streams);
      for (const id of evicted) {
        const label = context.connections[id]?.getSnapshot().context.device.label ?? id;
        const report: DeviceStatusReport = { type: 'device.status', deviceId: id, label, status: 'closed' };
        if (streams) enqueue.sendTo(streams, report);
      }
    }),
    /** Spawns the device's connection actor (or retries the existing one) and opens it. */
    connectDevice: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'device.connect') return;
      const id = event.device.device_id;
      const existing = context.connections[id];
      if (existing) {
        if (!context.order.includes(id)) {
          enqueue.assign({ order: [...context.order, id], status: { ...context.status, [id]: 'opening' } });
          enqueue.sendTo(existing, { type: 'device.retry' });
        }
        return;
      }
      enqueue.assign({
        connections: ({ context: c, spawn, self }) => ({
          ...c.connections,
          [id]: spawn('deviceConnection', {
            id: deviceActorId(id),
            input: { device: event.device, reportTo: self },
          }),
        }),
        order: ({ context: c }) => [...c.order, id],
        status: ({ context: c }) => ({ ...c.status, [id]: 'opening' }),
      });
      enqueue.sendTo(({ context: c }) => c.connections[id]!, { type: 'device.open' });
    }),
    /** Closes one link on request and forgets its actor. */
    disconnectDevice: enqueueActions(({ context, event, enqueue, system }) => {
      if (event.type !== 'device.disconnect') return;
      const ref = context.connections[event.deviceId];
      if (!ref) return;
      const label = ref.getSnapshot().context.device.label;
      enqueue.stopChild(ref);
      const { [event.deviceId]: _gone, ...rest } = context.connections;
      const { [event.deviceId]: _was, ...status } = context.status;
      enqueue.assign({ connections: rest, order: without(context.order, event.deviceId), status });
      const streams = system.get(SYSTEM_IDS.streams);
      if (streams) {
        const report: DeviceStatusReport = {
          type: 'device.status',
          deviceId: event.deviceId,
          label,
          status: 'closed',
        };
        enqueue.sendTo(streams, report);
      }
    }),
    /** A child's state changed: keep the connected list right and tell the streams actor. */
    trackStatus: enqueueActions(({ context, event, enqueue, system }) => {
      if (event.type !== 'device.status') return;
      if (!context.connections[event.deviceId]) return; // a late report from a stopped actor
      const status = { ...context.status, [event.deviceId]: event.status };
      if (event.status === 'closed' || event.status === 'errored') {
        enqueue.assign({ order: without(context.order, event.deviceId), status });
      } else {
        enqueue.assign({ status });
      }
      const streams = system.get(SYSTEM_IDS.streams);
      if (streams) enqueue.sendTo(streams, event);
    }),
    /** A child's camera list arrived: the camera grid needs it for the chooser (§2). */
    forwardCameras: enqueueActions(({ context, event, enqueue, system }) => {
      if (event.type !== 'device.cameras' || !context.connections[event.deviceId]) return;
      const streams = system.get(SYSTEM_IDS.streams);
      if (streams) enqueue.sendTo(streams, event);
    }),
    /** Stops every connection actor (closing every link). */
    closeAll: enqueueActions(({ context, enqueue }) => {
      for (const ref of Object.values(context.connections)) enqueue.stopChild(ref);
      enqueue.assign({ connections: {}, order: [], status: {} });
    }),
  },
  guards: {
    isNewLink: ({ context, event }) =>
      event.type === 'device.connect' && !context.order.includes(event.device.device_id),
  },
}).createMachine({
  id: 'devicePool',
  initial: 'active',
  context: ({ input }) => ({
    connections: {},
    order: [],
    status: {},
    limit: Math.max(1, input?.limit ?? PEER_CONNECTION_LIMIT),
  }),
  states: {
    active: {
      on: {
        'device.connect': [
          { guard: 'isNewLink', actions: ['evictOldestAtLimit', 'connectDevice'] },
          // Already opening or open: nothing to do.
        ],
        'device.disconnect': { actions: 'disconnectDevice' },
        'device.status': { actions: 'trackStatus' },
        'device.cameras': { actions: 'forwardCameras' },
        'pool.reset': { actions: 'closeAll' },
      },
    },
  },
});
