/**
 * Signalling across server instances (issue 15 "Scale-out past one server"): several server processes share
 * one PostgreSQL; a PeerJS peer is connected to one of them, and a message whose `dst` is connected to another
 * instance travels through PostgreSQL.
 *
 * Tables (src/server/db/schema/signalling.ts):
 *   - signalling_instances: this process's row, heartbeat renewed every HEARTBEAT_MS; a row older than
 *     INSTANCE_EXPIRY_MS is a dead instance: any instance sweeps it (its browser peers deleted, its devices'
 *     instance_id set to null, its undelivered messages deleted) and broadcasts that.
 *   - signalling_peers: peer id → owner (user id) and instance. Every instance keeps a mirror of the whole
 *     table in memory (loaded at start, kept current by the broadcast channel `edge_peers`), so the owner
 *     check of the message guard, the upgrade's Peer_id_taken check and presence stay synchronous.
 *   - signalling_messages: a message for another instance is a row (instance_id, body) plus
 *     `pg_notify('edge_sig_<instance>', '')` in the same statement; the receiving instance deletes its rows in
 *     id order and writes each to the destination's local socket. Rows rather than NOTIFY payloads because an
 *     SDP offer can pass NOTIFY's 8000-byte limit, and rows wait through a LISTEN reconnect (drained on LISTEN).
 *
 * Writes of one instance go through one queue, in order (a peer's register then unregister, an OFFER then its
 * CANDIDATEs). Kicks (a device token revoked while the device is on another instance) are NOTIFYs
 * `edge_sig_<instance>` with payload `k:<reason>:<peer id>`. Database failures are logged and retried by the
 * next heartbeat or LISTEN reconnect; they never throw into the signalling server.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { listenLoop, type ListenLoop } from '../realtime/listen';
import { DEVICE_PEER_PREFIX } from './peerIds';

/** Heartbeat period of an instance's row. */
export const HEARTBEAT_MS = 5_000;
/** An instance whose heartbeat is older than this is dead; its peers expire. */
export const INSTANCE_EXPIRY_MS = 20_000;
/** Broadcast channel of peer registrations. */
export const PEERS_CHANNEL = 'edge_peers';

/** A PeerJS message as the `peer` package writes it to a destination's socket. */
export interface RelayedMessage {
  type: string;
  src: string;
  dst: string;
  payload?: unknown;
}

export interface ClusterLog {
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

interface PeerEntry {
  owner: string;
  /** Instance the peer is connected to; null when not connected (devices stay known). */
  instance: string | null;
}

/** A change broadcast on PEERS_CHANNEL: a peer (p, owner o, instance i; x = deleted) or a dead instance. */
type PeerChange = { s: string; p: string; o: string; i: string | null; x?: 1 } | { s: string; dead: string };

/** This process's instance id: env INSTANCE_ID, else host-pid-random (lower case, [a-z0-9_]). */
export function defaultInstanceId(): string {
  const raw =
    process.env.INSTANCE_ID?.trim() || `${hostname()}_${process.pid}_${randomBytes(3).toString('hex')}`;
  return raw
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 40);
}

/** The NOTIFY channel of one instance. */
export const instanceChannel = (id: string) => `edge_sig_${id}`;

export class SignallingCluster {
  private readonly peers = new Map<string, PeerEntry>();
  private readonly live = new Set<string>();
  /** Bumped by every change of `peers` or `live` (Presence caches its online list by it). */
  private changes = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private listener: ListenLoop | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private closed = false;
  private draining = false;
  private drainAgain = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly connection: pg.ClientConfig,
    readonly instanceId: string,
    private readonly log: ClusterLog,
    /** Writes a message that arrived for a peer of this instance to its socket; false when it is not here. */
    private readonly deliver: (message: RelayedMessage) => boolean,
    /** Closes the local socket of `peerId` (a kick from another instance). */
    private readonly kickLocal: (peerId: string, reason: string) => void,
  ) {}

  /** Registers this instance, loads the peer table, starts LISTEN and the heartbeat. */
  async start(): Promise<void> {
    // First in the write queue, so peers registering while this starts are written after it.
    const registered = this.queue.then(async () => {
      // A previous process with this id (INSTANCE_ID reused after a crash) left registrations that are not
      // ours; this process's own (in memory) stay.
      await this.expire(this.instanceId, false);
      await this.pool.query(
        `insert into signalling_instances (id) values ($1)
         on conflict (id) do update set heartbeat_at = now(), started_at = now()`,
        [this.instanceId],
      );
    });
    this.queue = registered.catch(() => undefined);
    await registered;
    await this.sweep();
    await this.load();
    this.listener = this.listen();
    // Start-up waits for the first LISTEN (or its failure) so that no message sent to us right after is missed.
    await Promise.race([this.listener.ready, new Promise((r) => setTimeout(r, 5_000))]);
    this.heartbeat = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** A number that changes whenever remoteIds() may answer differently. */
  version(): number {
    return this.changes;
  }

  /** Owner (user id) of `peerId`, wherever it is registered; undefined when unknown. */
  ownerOf(peerId: string): string | undefined {
    return this.peers.get(peerId)?.owner;
  }

  /** The other live instance `peerId` is connected to, or null (here, offline or unknown). */
  remoteInstanceOf(peerId: string): string | null {
    const i = this.peers.get(peerId)?.instance;
    return i && i !== this.instanceId && this.live.has(i) ? i : null;
  }

  /** Peer ids connected to other live instances. */
  remoteIds(): string[] {
    const ids: string[] = [];
    for (const [id, e] of this.peers)
      if (e.instance && e.instance !== this.instanceId && this.live.has(e.instance)) ids.push(id);
    return ids;
  }

  /** `peerId` (owned by `owner`) connected to this instance. */
  register(peerId: string, owner: string): void {
    this.peers.set(peerId, { owner, instance: this.instanceId });
    this.changes++;
    this.enqueue(async () => {
      await this.pool.query(
        `insert into signalling_peers (peer_id, owner_id, instance_id) values ($1, $2, $3)
         on conflict (peer_id) do update set owner_id = excluded.owner_id, instance_id = excluded.instance_id,
           connected_at = now()`,
        [peerId, owner, this.instanceId],
      );
      await this.broadcast({ s: this.instanceId, p: peerId, o: owner, i: this.instanceId });
    });
  }

  /**
   * `peerId` left this instance. `keep`: the row stays with instance null (devices); else it is deleted
   * (browsers). Nothing changes when the peer has meanwhile registered on another instance.
   */
  unregister(peerId: string, keep: boolean): void {
    const e = this.peers.get(peerId);
    if (e && e.instance === this.instanceId) {
      if (keep) e.instance = null;
      else this.peers.delete(peerId);
      this.changes++;
    }
    this.enqueue(async () => {
      const res = keep
        ? await this.pool.query<{ owner_id: string }>(
            `update signalling_peers set instance_id = null where peer_id = $1 and instance_id = $2 returning owner_id`,
            [peerId, this.instanceId],
          )
        : await this.pool.query<{ owner_id: string }>(
            `delete from signalling_peers where peer_id = $1 and instance_id = $2 returning owner_id`,
            [peerId, this.instanceId],
          );
      const owner = res.rows[0]?.owner_id;
      if (owner !== undefined)
        await this.broadcast({
          s: this.instanceId,
          p: peerId,
          o: owner,
          i: null,
          ...(keep ? {} : { x: 1 as const }),
        });
    });
  }

  /** Sends `message` to the instance `instance` (in order with this instance's other writes). */
  send(instance: string, message: RelayedMessage): void {
    const body = JSON.stringify(message);
    this.enqueue(() =>
      this.pool.query(
        `with m as (insert into signalling_messages (instance_id, body) values ($1, $2) returning id)
         select pg_notify($3, '') from m`,
        [instance, body, instanceChannel(instance)],
      ),
    );
  }

  /** Asks the instance holding `peerId` to close its socket; false when it is on no other live instance. */
  kickRemote(peerId: string, reason: string): boolean {
    const instance = this.remoteInstanceOf(peerId);
    if (!instance) return false;
    this.enqueue(() =>
      this.pool.query(`select pg_notify($1, $2)`, [
        instanceChannel(instance),
        `k:${reason.replace(/:/g, ' ')}:${peerId}`,
      ]),
    );
    return true;
  }

  /** Stops LISTEN and the heartbeat; removes this instance's row and peers (others see them go at once). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.queue.catch(() => undefined);
    try {
      await this.expire(this.instanceId);
    } catch (err) {
      this.log.warn({ err }, 'signalling instance row not removed; it expires by heartbeat');
    }
    await this.listener?.close();
  }

  private enqueue(work: () => Promise<unknown>): void {
    this.queue = this.queue
      .then(work)
      .catch((err: unknown) => this.log.warn({ err }, 'signalling cluster write failed'));
  }

  private broadcast(change: PeerChange): Promise<unknown> {
    return this.pool.query(`select pg_notify($1, $2)`, [PEERS_CHANNEL, JSON.stringify(change)]);
  }

  /** Reads live instances and every peer row of a live instance (or offline). */
  private async load(): Promise<void> {
    const inst = await this.pool.query<{ id: string }>(`select id from signalling_instances`);
    this.live.clear();
    for (const r of inst.rows) this.live.add(r.id);
    const rows = await this.pool.query<{ peer_id: string; owner_id: string; instance_id: string | null }>(
      `select peer_id, owner_id, instance_id from signalling_peers`,
    );
    const mine = new Map([...this.peers].filter(([, e]) => e.instance === this.instanceId));
    this.peers.clear();
    for (const r of rows.rows) this.peers.set(r.peer_id, { owner: r.owner_id, instance: r.instance_id });
    // Registrations of this instance whose row write is still queued.
    for (const [id, e] of mine) this.peers.set(id, e);
    this.changes++;
  }

  private async beat(): Promise<void> {
    if (this.closed) return;
    try {
      const res = await this.pool.query(
        `update signalling_instances set heartbeat_at = now() where id = $1`,
        [this.instanceId],
      );
      if (res.rowCount === 0) {
        // Swept while we could not reach the database: register again, with our peers.
        await this.pool.query(`insert into signalling_instances (id) values ($1) on conflict do nothing`, [
          this.instanceId,
        ]);
        for (const [id, e] of this.peers) if (e.instance === this.instanceId) this.register(id, e.owner);
      }
      await this.sweep();
    } catch (err) {
      this.log.warn({ err }, 'signalling heartbeat failed');
    }
  }

  /** Expires instances whose heartbeat is too old. */
  private async sweep(): Promise<void> {
    const dead = await this.pool.query<{ id: string }>(
      `select id from signalling_instances where heartbeat_at < now() - make_interval(secs => $1) and id <> $2`,
      [INSTANCE_EXPIRY_MS / 1000, this.instanceId],
    );
    for (const r of dead.rows) await this.expire(r.id);
  }

  /** Removes instance `id`: its browser peers, its devices' registrations, its undelivered messages. */
  private async expire(id: string, dropLocal = true): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const gone = await client.query(`delete from signalling_instances where id = $1`, [id]);
      await client.query(
        `delete from signalling_peers where instance_id = $1 and lower(peer_id) not like $2`,
        [id, `${DEVICE_PEER_PREFIX.toLowerCase()}%`],
      );
      await client.query(`update signalling_peers set instance_id = null where instance_id = $1`, [id]);
      await client.query(`delete from signalling_messages where instance_id = $1`, [id]);
      if ((gone.rowCount ?? 0) > 0)
        await client.query(`select pg_notify($1, $2)`, [
          PEERS_CHANNEL,
          JSON.stringify({ s: this.instanceId, dead: id }),
        ]);
      await client.query('commit');
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
    if (dropLocal) this.dropInstance(id);
  }

  private dropInstance(id: string): void {
    this.changes++;
    this.live.delete(id);
    for (const [peerId, e] of this.peers) {
      if (e.instance !== id) continue;
      if (!peerId.toLowerCase().startsWith(DEVICE_PEER_PREFIX.toLowerCase())) this.peers.delete(peerId);
      else e.instance = null;
    }
  }

  private onPeerChange(raw: string): void {
    let change: PeerChange;
    try {
      change = JSON.parse(raw) as PeerChange;
    } catch {
      return;
    }
    if (change.s === this.instanceId) return;
    this.changes++;
    if ('dead' in change) {
      if (change.dead !== this.instanceId) this.dropInstance(change.dead);
      return;
    }
    if (change.i) this.live.add(change.i);
    const current = this.peers.get(change.p);
    // A stale "left" from another instance never removes a registration of ours.
    if (current?.instance === this.instanceId && change.i !== this.instanceId) {
      if (change.i === null) return;
    }
    if (change.x) this.peers.delete(change.p);
    else this.peers.set(change.p, { owner: change.o, instance: change.i });
  }

  /** Delivers this instance's waiting messages in id order; one drain at a time. */
  private async drain(): Promise<void> {
    if (this.draining) {
      this.drainAgain = true;
      return;
    }
    this.draining = true;
    try {
      do {
        this.drainAgain = false;
        const res = await this.pool.query<{ body: string }>(
          `with d as (delete from signalling_messages where instance_id = $1 returning id, body)
           select body from d order by id`,
          [this.instanceId],
        );
        for (const r of res.rows) {
          try {
            const m = JSON.parse(r.body) as RelayedMessage;
            if (!this.deliver(m))
              this.log.warn({ dst: m.dst, type: m.type }, 'signalling message for a peer not here dropped');
          } catch (err) {
            this.log.warn({ err }, 'signalling message not delivered');
          }
        }
      } while (this.drainAgain && !this.closed);
    } catch (err) {
      this.log.warn({ err }, 'signalling messages not read; next notification retries');
    } finally {
      this.draining = false;
    }
  }

  private onInstanceNotice(payload: string): void {
    if (payload.startsWith('k:')) {
      const rest = payload.slice(2);
      const at = rest.indexOf(':');
      if (at > 0) this.kickLocal(rest.slice(at + 1), rest.slice(0, at));
      return;
    }
    void this.drain();
  }

  private listen(): ListenLoop {
    const own = instanceChannel(this.instanceId);
    return listenLoop({
      connection: this.connection,
      channels: [PEERS_CHANNEL, own],
      name: 'signalling',
      log: this.log,
      onNotification: (channel, payload) => {
        if (channel === PEERS_CHANNEL) this.onPeerChange(payload);
        else if (channel === own) this.onInstanceNotice(payload);
      },
      // What changed or arrived while we were not listening.
      onListening: async () => {
        await this.load();
        await this.drain();
      },
    });
  }
}
