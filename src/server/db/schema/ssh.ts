/** Database schema, SSH install host-key pins (issue 12; spec §7 connect-ssh). Re-exported by ./index.ts. */
import { integer, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt, users } from './core';

/**
 * SSH install (issue 12; spec §7 connect-ssh): the host key a user's SSH install first met at (host, port),
 * pinned on first use. A later connection offering another key is refused (`Host_key_changed`) until the
 * user forgets the pin. fingerprint: OpenSSH's `SHA256:<base64 without padding>` of the key blob; key_type:
 * e.g. `ssh-ed25519`. No password or private key is ever stored.
 */
export const sshHostKeys = pgTable(
  'ssh_host_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    host: text('host').notNull(),
    port: integer('port').notNull(),
    keyType: text('key_type').notNull(),
    fingerprint: text('fingerprint').notNull(),
    createdAt: createdAt(),
  },
  (t) => [unique('ssh_host_keys_owner_host_port_uq').on(t.ownerId, t.host, t.port)],
);
