/**
 * Database schema, signalling across server instances (issue 15 "Scale-out past one server"; spec §7 signalling
 * calls). Re-exported by ./index.ts. Written and read by src/server/signalling/cluster.ts.
 *
 * - signalling_instances: one row per running server process, its heartbeat renewed every few seconds; a row
 *   whose heartbeat is older than the expiry is a dead instance and any instance sweeps it (and its peers).
 * - signalling_peers: where each PeerJS peer id is registered (instance_id; null = not connected now) and the
 *   user it belongs to (a browser's user, a device's owner). Browser rows go when their socket closes; device
 *   rows stay with instance_id null (messages to an offline device still pass the owner check).
 * - signalling_messages: a PeerJS message on its way to the instance holding its destination. Rows, not NOTIFY
 *   payloads: an SDP offer is bigger than NOTIFY's 8000 bytes, and rows survive a LISTEN reconnect; the
 *   receiver deletes each as it delivers it.
 */
import { bigserial, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const signallingInstances = pgTable('signalling_instances', {
  id: text('id').primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
});

export const signallingPeers = pgTable(
  'signalling_peers',
  {
    peerId: text('peer_id').primaryKey(),
    ownerId: text('owner_id').notNull(),
    instanceId: text('instance_id'),
    connectedAt: timestamp('connected_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('signalling_peers_instance_idx').on(t.instanceId)],
);

export const signallingMessages = pgTable(
  'signalling_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    instanceId: text('instance_id').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('signalling_messages_instance_idx').on(t.instanceId, t.id)],
);
