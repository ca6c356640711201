/**
 * A PostgreSQL LISTEN connection that comes back (used by the real-time socket, ./socket.ts, and the
 * signalling cluster, ../signalling/cluster.ts): one pg.Client LISTENing on `channels`; when the connection
 * breaks (PostgreSQL restarted, network) a new one is made after 1 s. After each LISTEN, `onListening` runs
 * so the caller can catch up on what was sent while nobody listened (NOTIFY is not queued for absent
 * listeners). Notifications go to `onNotification(channel, payload)`; its errors are the caller's to handle.
 */
import pg from 'pg';

export interface ListenLoop {
  /** Settles after the first LISTEN, or after the first attempt failed (logged). */
  ready: Promise<void>;
  /** Ends the connection and stops reconnecting. */
  close(): Promise<void>;
}

export function listenLoop(opts: {
  connection: pg.ClientConfig;
  /** Channel names (identifiers: [a-z0-9_]). */
  channels: string[];
  onNotification: (channel: string, payload: string) => void;
  onListening: () => Promise<void> | void;
  log: { error(obj: unknown, msg?: string): void };
  /** Names the connection in the log line of a failure. */
  name: string;
}): ListenLoop {
  let closed = false;
  let client: pg.Client | null = null;
  let ready!: () => void;
  const readyPromise = new Promise<void>((r) => (ready = r));
  const loop = async (): Promise<void> => {
    while (!closed) {
      const c = new pg.Client(opts.connection);
      // Known to close() from the start, and its end awaited from before connecting: a close while this
      // connection is still being made ends it too (else `ended` never settles and closing hangs).
      client = c;
      const ended = new Promise<void>((resolve) => {
        c.on('error', () => resolve());
        c.on('end', () => resolve());
      });
      try {
        await c.connect();
        c.on('notification', (n) => opts.onNotification(n.channel, n.payload ?? ''));
        for (const channel of opts.channels) await c.query(`LISTEN ${channel}`);
        ready();
        if (!closed) {
          await opts.onListening();
          await ended;
        }
      } catch (err) {
        if (!closed) opts.log.error({ err }, `${opts.name} LISTEN connection failed; retrying`);
      }
      ready();
      client = null;
      await c.end().catch(() => undefined);
      if (!closed) await new Promise((r) => setTimeout(r, 1000));
    }
  };
  const running = loop();
  return {
    ready: readyPromise,
    async close() {
      closed = true;
      await client?.end().catch(() => undefined);
      await running;
    },
  };
}
