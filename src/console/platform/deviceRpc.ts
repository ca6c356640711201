/**
 * Request/reply over one device link — ARCHITECTURE "The device link", src/protocol/link.ts, spec §7
 * "Device commands over the peer link (field process)".
 *
 * Wraps one PeerJS DataConnection (json serialisation, reliable): `open(grant)` sends `hello` and waits for
 * `hello.ok`; `call(process, payload)` sends `{ type: 'request', process, requestId, payload }` and resolves
 * with the reply's data validated by the command registry's reply schema. Error replies reject with
 * `DeviceCommandError { code, message }`; so do a time-out ('timeout'), a closed link ('link_closed') and a
 * reply that fails validation ('invalid_reply'). Malformed messages from the device are ignored.
 * Transport-agnostic (any `DataConnectionLike`), so it is tested without PeerJS.
 * This module imports zod (through the protocol schemas): peerLink.ts loads it with a dynamic import when
 * signalling opens, so the /login page does not ship it.
 */
import {
  deviceCommands,
  type CommandReply,
  type CommandRequest,
  type DeviceProcess,
} from '../../protocol/commands';
import { AgentToBrowser, LINK_ERROR_CODES } from '../../protocol/link';
import { LINK_KEEPALIVE_INTERVAL_MS, LINK_SILENCE_TIMEOUT_MS } from '../../protocol/constants';
import {
  DEVICE_CALL_TIMEOUT_MS,
  DeviceCommandError,
  randomId,
  type CallOptions,
  type DataConnectionLike,
} from './linkShared';

export {
  DEVICE_CALL_TIMEOUT_MS,
  DeviceCommandError,
  randomId,
  type CallOptions,
  type DataConnectionLike,
} from './linkShared';

interface Pending {
  process: string;
  resolve: (data: unknown) => void;
  reject: (error: DeviceCommandError) => void;
  timer: ReturnType<typeof setTimeout>;
  /** The call's progress listener (restarts the time-out), when it asked for progress. */
  progress?: (data: unknown) => void;
}

/** One open device link. */
export class DeviceLinkClient {
  private readonly pending = new Map<string, Pending>();
  private readonly closeListeners = new Set<(reason: string) => void>();
  private helloWaiter: { resolve: () => void; reject: (e: DeviceCommandError) => void } | null = null;
  private closed = false;
  private ready = false;
  /** When the agent last said anything (ms since epoch); checked by the silence watchdog. */
  private lastHeardAt = Date.now();
  private watchdog: ReturnType<typeof setInterval> | null = null;

  /**
   * @param onEvent receives the agent's pushed events (`{ type: 'event', name, data }`, e.g. 'stream.status');
   *   `data` is unvalidated — the listener checks what it reads.
   */
  constructor(
    private readonly conn: DataConnectionLike,
    readonly deviceId: string,
    private readonly onEvent?: (name: string, data: unknown) => void,
  ) {
    conn.on('data', (data) => this.onData(data));
    conn.on('close', () => this.finish('The device closed the link.'));
    conn.on('error', (error) => this.finish(error.message || 'Device link error.'));
  }

  /** True once hello.ok arrived and until the link closes. */
  get isOpen(): boolean {
    return this.ready && !this.closed;
  }

  /**
   * Waits for the data connection to open, sends `hello { grant }` and waits for `hello.ok`.
   * Rejects with DeviceCommandError('unauthorized' | 'link_closed' | 'timeout').
   */
  open(grant: string, timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.helloWaiter = null;
        reject(new DeviceCommandError(LINK_ERROR_CODES.timeout, 'Can not connect to the device.'));
        this.close();
      }, timeoutMs);
      this.helloWaiter = {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      const sendHello = () => {
        Promise.resolve(this.conn.send({ type: 'hello', grant })).catch(() => undefined);
      };
      if (this.closed) {
        this.helloWaiter.reject(new DeviceCommandError('link_closed', 'The device closed the link.'));
      } else if (this.conn.open) sendHello();
      else this.conn.on('open', sendHello);
    });
  }

  /** Sends one command and resolves with its validated reply data. */
  call<P extends DeviceProcess>(
    process: P,
    payload: CommandRequest<P>,
    options: CallOptions = {},
  ): Promise<CommandReply<P>> {
    if (!this.isOpen) {
      return Promise.reject(new DeviceCommandError('link_closed', 'The device link is not open.', process));
    }
    const checked = deviceCommands[process].request.safeParse(payload);
    if (!checked.success) {
      return Promise.reject(
        new DeviceCommandError(LINK_ERROR_CODES.invalidPayload, `Invalid payload for ${process}.`, process),
      );
    }
    const requestId = randomId(16);
    const timeoutMs = options.timeoutMs ?? DEVICE_CALL_TIMEOUT_MS;
    if (options.signal?.aborted) {
      return Promise.reject(new DeviceCommandError('aborted', 'The call was canceled.', process));
    }
    return new Promise<CommandReply<P>>((resolve, reject) => {
      const onTimeout = () => {
        this.settle(
          requestId,
          new DeviceCommandError(
            LINK_ERROR_CODES.timeout,
            'Could not get an answer from the device.',
            process,
          ),
        );
      };
      const onAbort = () =>
        this.settle(requestId, new DeviceCommandError('aborted', 'The call was canceled.', process));
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const pending: Pending = {
        process,
        timer: setTimeout(onTimeout, timeoutMs),
        reject: (error) => {
          options.signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
        resolve: (data) => {
          options.signal?.removeEventListener('abort', onAbort);
          const reply = deviceCommands[process].reply.safeParse(data);
          if (reply.success) resolve(reply.data as CommandReply<P>);
          else
            reject(
              new DeviceCommandError('invalid_reply', `The device answered ${process} wrongly.`, process),
            );
        },
        progress: options.onProgress
          ? (data) => {
              clearTimeout(pending.timer);
              pending.timer = setTimeout(onTimeout, timeoutMs);
              options.onProgress?.(data);
            }
          : undefined,
      };
      this.pending.set(requestId, pending);
      Promise.resolve(this.conn.send({ type: 'request', process, requestId, payload: checked.data })).catch(
        () =>
          this.settle(
            requestId,
            new DeviceCommandError('link_closed', 'The device link is not open.', process),
          ),
      );
    });
  }

  /** Listens for the link closing (by either side); returns the unsubscribe function. */
  onClose(listener: (reason: string) => void): () => void {
    if (this.closed) {
      listener('The device link is closed.');
      return () => undefined;
    }
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Closes the link (idempotent); pending calls reject with 'link_closed'. */
  close(): void {
    if (this.closed) return;
    // finish() first: closing the connection emits 'close' at once, which would report another reason.
    this.finish('The device link was closed.');
    try {
      this.conn.close();
    } catch {
      // Already closed underneath.
    }
  }

  /** Fails the link from outside (e.g. the peer reported the device unavailable). */
  fail(reason: string): void {
    if (this.closed) return;
    this.finish(reason);
    try {
      this.conn.close();
    } catch {
      // ignore
    }
  }

  private onData(raw: unknown): void {
    this.lastHeardAt = Date.now();
    const parsed = AgentToBrowser.safeParse(raw);
    if (!parsed.success) return; // malformed: ignore, never crash
    const msg = parsed.data;
    switch (msg.type) {
      case 'hello.ok':
        this.ready = true;
        this.startWatchdog();
        this.helloWaiter?.resolve();
        this.helloWaiter = null;
        return;
      case 'hello.error':
        this.helloWaiter?.reject(new DeviceCommandError(msg.error.code, msg.error.message));
        this.helloWaiter = null;
        return;
      case 'reply':
        if (msg.ok) this.settle(msg.requestId, null, msg.data);
        else
          this.settle(msg.requestId, new DeviceCommandError(msg.error.code, msg.error.message, msg.process));
        return;
      case 'event':
        this.onEvent?.(msg.name, msg.data);
        return;
      case 'progress':
        this.pending.get(msg.requestId)?.progress?.(msg.data);
        return;
      default:
        return;
    }
  }

  /**
   * §9 keep-alive: the agent sends an event every LINK_KEEPALIVE_INTERVAL_MS on a ready link. A link silent
   * for LINK_SILENCE_TIMEOUT_MS is dead (agent killed, network cut: no close ever arrives) and is failed, so
   * the device connection reconnects instead of waiting for ICE to time out.
   */
  private startWatchdog(): void {
    if (this.watchdog) return;
    this.watchdog = setInterval(() => {
      if (Date.now() - this.lastHeardAt > LINK_SILENCE_TIMEOUT_MS) {
        this.fail('The device stopped answering.');
        return;
      }
      // Our half of the keep-alive: the agent closes a link it stops hearing from.
      Promise.resolve(this.conn.send({ type: 'keepalive' })).catch(() => undefined);
    }, LINK_KEEPALIVE_INTERVAL_MS);
  }

  private settle(requestId: string, error: DeviceCommandError | null, data?: unknown): void {
    const pending = this.pending.get(requestId);
    if (!pending) return;
    this.pending.delete(requestId);
    clearTimeout(pending.timer);
    if (error) pending.reject(error);
    else pending.resolve(data);
  }

  private finish(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    this.ready = false;
    this.helloWaiter?.reject(new DeviceCommandError('link_closed', reason));
    this.helloWaiter = null;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new DeviceCommandError('link_closed', reason, p.process));
      this.pending.delete(id);
    }
    for (const listener of [...this.closeListeners]) listener(reason);
    this.closeListeners.clear();
  }
}
