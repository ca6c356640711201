/**
 * Small pure formatters for device and stream views (spec §3 entities, §9 constants). No React.
 */
import { X86_CHIPSET_ID } from '../../protocol/constants';

/** §3 §9 Device type from chipset_id: '0' is x86, any other value is Jetson. */
export function deviceType(chipsetId: string): 'x86' | 'Jetson' {
  return chipsetId === X86_CHIPSET_ID ? 'x86' : 'Jetson';
}

/** deviceConnection machine states (§4 Device connection). */
export type DeviceConnectionState =
  'notConnected' | 'opening' | 'open' | 'reconnecting' | 'closed' | 'errored';

/** Label of a device connection state, as the devices table shows it. */
export function connectionLabel(state: DeviceConnectionState | null | undefined): string {
  switch (state) {
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

/** Mantine colour for a connection state badge. */
export function connectionColour(state: DeviceConnectionState | null | undefined): string {
  switch (state) {
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

/** Whether a device in `state` can be connected (button says Connect) rather than disconnected. */
export function canConnect(state: DeviceConnectionState | null | undefined): boolean {
  return (
    state === undefined ||
    state === null ||
    state === 'notConnected' ||
    state === 'closed' ||
    state === 'errored'
  );
}

/**
 * What a stream cell shows (§2 "status of a stream"): the stream machine's top-level state, with
 * `waitingForDevice` and `retrying` both shown as 'reconnecting', `resuming` as 'connecting'.
 */
export type StreamState =
  'starting' | 'connecting' | 'playing' | 'paused' | 'reconnecting' | 'failed' | 'closed';

/** The stream machine's top-level state name → what the cell shows. */
export function streamStateOf(value: unknown): StreamState {
  const top =
    typeof value === 'string' ? value : value && typeof value === 'object' ? Object.keys(value)[0] : '';
  switch (top) {
    case 'waitingForDevice':
    case 'retrying':
      return 'reconnecting';
    // A held stream asked to play again on its connection.
    case 'resuming':
      return 'connecting';
    case 'starting':
    case 'connecting':
    case 'playing':
    case 'paused':
    case 'failed':
    case 'closed':
      return top;
    default:
      return 'starting';
  }
}

/** The status line of a stream cell. */
export function streamStatusLabel(state: StreamState, error: string | null): string {
  switch (state) {
    case 'starting':
      return 'Starting';
    case 'paused':
      return 'Paused (hidden)';
    case 'reconnecting':
      return 'Reconnecting';
    case 'connecting':
      return 'Connecting';
    case 'playing':
      return 'Playing';
    case 'failed':
      return `Failed: ${error ?? 'unknown error'}`;
    case 'closed':
      return 'Closed';
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
