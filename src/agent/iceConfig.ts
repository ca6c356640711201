/**
 * The agent's ICE configuration (issue 15 "Relayed WebRTC"; server side src/server/signalling/turn.ts).
 *
 * GET ice-servers answers `{ servers, policy?, expires_at? }`: `servers` may hold TURN credentials minted for
 * this device that expire at `expires_at` (ms since epoch), and `policy` 'relay' makes every peer connection
 * use relayed candidates only. The agent runs for months, so it must never keep expired credentials:
 * `AgentIce` keeps one configuration object (handed to PeerJS, which reads it for every incoming device link;
 * `iceServers()`/`iceTransportPolicy()` for media and inference peer connections) and fetches a new answer
 * when half of its lifetime has passed: on a timer (unref'd) and before each new connection when the timer
 * could not run (`refreshIfDue`). A failed fetch keeps the current answer and retries after RETRY_MS.
 */
import type { IceServer, IceServersResponse, IceTransportPolicy } from '../protocol';
import { errorMessage, type Logger } from './log';

/** The RTCConfiguration part the server decides. The same object lives as long as the agent. */
export interface IceConfiguration {
  iceServers: IceServer[];
  iceTransportPolicy: IceTransportPolicy;
}

/** Wait after a failed refresh before the next attempt (ms). */
const RETRY_MS = 30_000;
/** Shortest wait before a scheduled refresh (ms). */
const MIN_WAIT_MS = 5_000;

/** Holds and refreshes the ICE answer; see the module comment. */
export class AgentIce {
  /** PeerJS `config` (mutated in place so new device links use fresh credentials). */
  readonly config: IceConfiguration = { iceServers: [], iceTransportPolicy: 'all' };
  private refreshAt: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly fetchIce: () => Promise<IceServersResponse>,
    private readonly log: Pick<Logger, 'warn' | 'info'>,
  ) {}

  /** First fetch (rejects like the request); schedules the refreshes. */
  async load(): Promise<void> {
    this.apply(await this.fetchIce());
  }

  /** ICE servers for a new peer connection. */
  iceServers(): IceServer[] {
    return this.config.iceServers;
  }

  /** 'relay' when the server asks for relayed candidates only. */
  iceTransportPolicy(): IceTransportPolicy {
    return this.config.iceTransportPolicy;
  }

  /** Takes an answer: updates the configuration in place and schedules the next refresh. */
  apply(answer: IceServersResponse): void {
    this.config.iceServers = answer.servers;
    this.config.iceTransportPolicy = answer.policy ?? 'all';
    const now = Date.now();
    this.refreshAt =
      answer.expires_at === undefined ? null : now + Math.max(0, (answer.expires_at - now) / 2);
    this.schedule(this.refreshAt === null ? null : Math.max(MIN_WAIT_MS, this.refreshAt - now));
  }

  /**
   * Fetches a new answer now when half the lifetime has passed (or `force`); concurrent calls share one
   * request. Never rejects: a failure is logged, the current answer kept and a retry scheduled.
   */
  refreshIfDue(force = false): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (!force && (this.refreshAt === null || Date.now() < this.refreshAt)) return Promise.resolve();
    this.inFlight ??= this.fetchIce()
      .then(
        (answer) => this.apply(answer),
        (err: unknown) => {
          this.log.warn(`GET ice-servers failed (${errorMessage(err)}); keeping the current ICE servers`);
          this.schedule(RETRY_MS);
        },
      )
      .finally(() => {
        this.inFlight = null;
      });
    return this.inFlight;
  }

  /** Stops the refresh timer (agent close). */
  stop(): void {
    this.stopped = true;
    this.schedule(null);
  }

  private schedule(waitMs: number | null): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (waitMs === null || this.stopped) return;
    this.timer = setTimeout(() => void this.refreshIfDue(true), waitMs);
    this.timer.unref();
  }
}
