/**
 * What the device page's views read of its actor (systemId 'devicePage'): `devicePageToView`, a pure function
 * of the snapshot (tags and context), and the hooks that select it.
 */
import { shallowEqual, useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { devicePageMachine, GpuDriver } from '../../../../machines/devicePage/devicePage.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Device } from '../../../protocol/devices';
import { actorOf, useSystem } from '../../shell/SystemProvider';

export type DevicePageRef = ActorRefFrom<typeof devicePageMachine>;
type DevicePageSnapshot = SnapshotFrom<typeof devicePageMachine>;

export interface DevicePageView {
  deviceId: string | null;
  record: 'closed' | 'loading' | 'ready' | 'notFound' | 'failed';
  device: Device | null;
  error: string | null;
  online: boolean | null;
  token: {
    asking: boolean;
    busy: boolean;
    /** The new token while shown (once). */
    shown: string | null;
    error: string | null;
  };
  removal: { asking: boolean; busy: boolean; deleted: boolean; error: string | null };
  gpu: { checking: boolean; result: GpuDriver | null; error: string | null };
}

export function devicePageToView(s: DevicePageSnapshot): DevicePageView {
  const c = s.context;
  const record = s.matches('closed')
    ? 'closed'
    : s.hasTag('ready')
      ? 'ready'
      : s.hasTag('notFound')
        ? 'notFound'
        : s.hasTag('failed')
          ? 'failed'
          : 'loading';
  return {
    deviceId: c.deviceId,
    record,
    device: c.device,
    error: c.error,
    online: c.online,
    token: {
      asking: s.hasTag('tokenAsking'),
      busy: s.hasTag('tokenBusy'),
      shown: s.hasTag('tokenShown') ? c.token : null,
      error: c.tokenError,
    },
    removal: {
      asking: s.hasTag('removalAsking'),
      busy: s.hasTag('removalBusy'),
      deleted: s.hasTag('deleted'),
      error: c.deleteError,
    },
    gpu: { checking: s.hasTag('gpuChecking'), result: c.gpu, error: c.gpuError },
  };
}

export function useDevicePageRef(): DevicePageRef {
  return actorOf<DevicePageRef>(useSystem(), SYSTEM_IDS.devicePage);
}

export function useDevicePageView(): DevicePageView {
  return useSelector(useDevicePageRef(), devicePageToView, viewEqual);
}

function viewEqual(a: DevicePageView, b: DevicePageView): boolean {
  return (
    shallowEqual(a, b) ||
    (a.deviceId === b.deviceId &&
      a.record === b.record &&
      a.device === b.device &&
      a.error === b.error &&
      a.online === b.online &&
      shallowEqual(a.token, b.token) &&
      shallowEqual(a.removal, b.removal) &&
      shallowEqual(a.gpu, b.gpu))
  );
}
