/**
 * The zod-free parts of the device link (errors, ids, the data-connection shape), shared by peerLink.ts
 * (loaded with the console) and deviceRpc.ts (loaded on demand, since it validates with the zod schemas of
 * src/protocol/commands.ts and link.ts). deviceRpc.ts re-exports everything here.
 */

/** Default per-call time-out, ms. */
export const DEVICE_CALL_TIMEOUT_MS = 10_000;

/** A device's error reply (or a local failure of the call). `code` is one of LINK_ERROR_CODES or below. */
export class DeviceCommandError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly process?: string,
  ) {
    super(message);
    this.name = 'DeviceCommandError';
  }
}

/** The part of a PeerJS DataConnection we use. */
export interface DataConnectionLike {
  readonly peer: string;
  readonly open: boolean;
  send(data: unknown): void | Promise<void>;
  close(): void;
  on(event: 'open' | 'close', listener: () => void): unknown;
  on(event: 'data', listener: (data: unknown) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  off?(event: string, listener: (...args: never[]) => void): unknown;
}

/** A random id, url-safe (works in insecure contexts, unlike crypto.randomUUID). */
export function randomId(bytes = 12): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function' && bytes === 16) {
    return crypto.randomUUID();
  }
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return Array.from(buf, (b) => b.toString(16).padStart(2, '0')).join('');
}

export interface CallOptions {
  /**
   * Time-out of this call, ms (default DEVICE_CALL_TIMEOUT_MS). With `onProgress`, the time allowed without
   * any word from the device: each progress message restarts it (a download may run for minutes).
   */
  timeoutMs?: number;
  /** Receives the command's progress messages' `data` (unvalidated: the listener checks what it reads). */
  onProgress?: (data: unknown) => void;
  /** Aborting rejects the call with 'aborted' (the device is not told: send its cancel command too). */
  signal?: AbortSignal;
}
