/**
 * Small pure formatters for device views (spec §3 entities, §9 constants). No React.
 */
import type { DeviceConnectionStatus } from '../../../../machines/devices/deviceConnection.machine';
import { X86_CHIPSET_ID } from '../../../protocol/constants';

/** §3 §9 Device type from chipset_id: '0' is x86, any other value is Jetson. */
export function deviceType(chipsetId: string): 'x86' | 'Jetson' {
  return chipsetId === X86_CHIPSET_ID ? 'x86' : 'Jetson';
}

/** Label of a device connection status, as the devices table shows it. */
export function connectionLabel(status: DeviceConnectionStatus | null | undefined): string {
  switch (status) {
    case 'opening':
      return 'Opening';
    case 'open':
      return 'Open';
    case 'reconnecting':
      return 'Reconnecting';
    case 'closed':
      return 'Closed';
    case 'errored':
      return 'Error';
    default:
      return 'Not connected';
  }
}

/** Mantine colour for a connection status badge. */
export function connectionColour(status: DeviceConnectionStatus | null | undefined): string {
  switch (status) {
    case 'opening':
      return 'yellow';
    case 'reconnecting':
      return 'orange';
    case 'open':
      return 'green';
    case 'errored':
      return 'red';
    default:
      return 'gray';
  }
}

/** A percentage with no decimals, or an en dash when unknown. */
export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '–' : `${Math.round(value)} %`;
}

/** "used / total MiB" (memory in MiB), or an en dash when unknown. */
export function formatMemoryMb(used: number | null | undefined, total: number | null | undefined): string {
  if (used === null || used === undefined || total === null || total === undefined) return '–';
  return `${Math.round(used)} / ${Math.round(total)} MiB`;
}

/** Round-trip time in ms, or an en dash when unknown. */
export function formatRtt(rttMs: number | null | undefined): string {
  return rttMs === null || rttMs === undefined || !Number.isFinite(rttMs) ? '–' : `${Math.round(rttMs)} ms`;
}

/** Number of pages for `total` items at `perPage` per page (at least 1). */
export function pageCount(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, perPage)));
}
