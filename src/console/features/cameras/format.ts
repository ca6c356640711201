/**
 * Pure text for stream views (§2 "status of a stream"). No React.
 */
import type { StreamStatus } from './selectors';

/** The status line of a stream cell. */
export function streamStatusLabel(status: StreamStatus, error: string | null): string {
  switch (status) {
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
