/** Database schema, Core entities of spec §3 the server owns: users, refresh tokens, groups, devices, cameras, stream limits, layouts, server keys, environments, agent releases. Re-exported by ./index.ts. */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

/** created_at column: timestamptz, not null, default now(). */
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull().unique(),
    username: text('username').notNull(),
    /** argon2id (PHC string). */
    passwordHash: text('password_hash').notNull(),
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`'{user}'::text[]`),
    bio: text('bio'),
    image: text('image'),
    emailConfirmed: boolean('email_confirmed').notNull().default(false),
    createdAt: createdAt(),
    /** Set by an admin (issue 13 admin panel): sign-in is refused and every token of the user stops working. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** lower(username): the admin user list's case-insensitive sort key (src/server/admin/userList.ts). */
    usernameKey: text('username_key')
      .notNull()
      .generatedAlwaysAs(sql`lower(username)`),
    /**
     * email, U+001F, lower(username): the admin user list's search text (one trigram index and a case-sensitive
     * LIKE on lower-case text instead of ILIKE on two columns; src/server/admin/userList.ts).
     */
    searchKey: text('search_key')
      .notNull()
      .generatedAlwaysAs(sql`email || chr(31) || lower(username)`),
  },
  (t) => [
    // The admin user list (issue 13): keyset sort orders and trigram search (pg_trgm, migration 0005).
    index('users_username_key_idx').on(t.usernameKey, t.id),
    index('users_created_idx').on(t.createdAt, t.id),
    index('users_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    index('users_search_trgm_idx').using('gin', t.searchKey.op('gin_trgm_ops')),
  ],
);

/** Refresh tokens by jti; rotated on use (revoked_at + replaced_by), revoked on logout. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    jti: uuid('jti').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    replacedBy: uuid('replaced_by'),
    /**
     * The sign-in this token belongs to: the first token's jti, kept by every rotation. Access tokens carry it as
     * `sid`; a session with no live refresh token (signed out, or ended by a password change elsewhere) refuses
     * its access tokens too (src/server/auth/guard.ts).
     */
    sessionId: uuid('session_id'),
    createdAt: createdAt(),
  },
  (t) => [index('refresh_tokens_user_idx').on(t.userId), index('refresh_tokens_session_idx').on(t.sessionId)],
);

/** §3 Group (device or camera): a tree per user and group type. */
export const groups = pgTable(
  'groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    groupType: text('group_type').notNull(),
    parentId: uuid('parent_id').references((): AnyPgColumn => groups.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('groups_owner_type_name_uq').on(t.ownerId, t.groupType, t.name),
    check('groups_type_ck', sql`${t.groupType} in ('camera', 'device')`),
  ],
);

/** §3 Device. device_id is its signalling peer id ('dev-' + 16 hex); token_jti is the live device token. */
export const devices = pgTable(
  'devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: text('device_id').notNull().unique(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    clientName: text('client_name').notNull().default(''),
    /** §9 '0' = x86, anything else = Jetson. */
    chipsetId: text('chipset_id').notNull().default('0'),
    jetpack: text('jetpack'),
    /** JSON text (§3: parsed by the console; includes driver_version). */
    deviceParams: text('device_params').notNull().default('{}'),
    clientVersion: text('client_version'),
    groupId: uuid('group_id').references(() => groups.id, { onDelete: 'set null' }),
    tokenJti: uuid('token_jti'),
    /** lower(label) and lower(client_name): the list's case-insensitive sort keys (index-only scans). */
    labelKey: text('label_key')
      .notNull()
      .generatedAlwaysAs(sql`lower(label)`),
    clientKey: text('client_key')
      .notNull()
      .generatedAlwaysAs(sql`lower(client_name)`),
    /** Where the device stands (WGS 84 degrees) for the map (§2 /map); null until the owner places it. */
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    createdAt: createdAt(),
  },
  (t) => [
    // The device list (get_devices/, §7): each sort order is an index-only scan of the owner's ids (deferred
    // join; src/server/db/deviceList.ts), a search a trigram index scan (pg_trgm, migration 0005).
    index('devices_owner_label_idx').on(t.ownerId, t.labelKey, t.id),
    index('devices_owner_client_idx').on(t.ownerId, t.clientKey, t.id),
    index('devices_owner_created_idx').on(t.ownerId, t.createdAt, t.id),
    // Also the owner's devices in general (it replaces devices_owner_idx, its prefix).
    index('devices_owner_id_idx').on(t.ownerId, t.id),
    index('devices_label_trgm_idx').using('gin', t.label.op('gin_trgm_ops')),
    index('devices_client_trgm_idx').using('gin', t.clientName.op('gin_trgm_ops')),
    index('devices_device_id_trgm_idx').using('gin', t.deviceId.op('gin_trgm_ops')),
  ],
);

/**
 * How many devices each user has, kept by triggers on `devices` (migration 0005): the device list's total without
 * counting 100,000 rows per page. Read-only for the code.
 */
export const deviceCounts = pgTable('device_counts', {
  ownerId: uuid('owner_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  n: integer('n').notNull().default(0),
  /** Bumped by every statement that inserts, deletes or updates the owner's devices (migration 0006). */
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

/** §3 IP camera: listed from the server; streams through the agent of `device_row_id` when set. */
export const ipCameras = pgTable(
  'ip_cameras',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    url: text('url').notNull(),
    /** Credentials of the camera, kept on the server only (never sent back to a browser). */
    username: text('username'),
    /** The camera's password, encrypted with the server's key (src/server/routes/ipCameras.ts). */
    passwordSecret: text('password_secret'),
    deviceRowId: uuid('device_row_id').references(() => devices.id, { onDelete: 'set null' }),
    groupId: uuid('group_id').references(() => groups.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('ip_cameras_owner_idx').on(t.ownerId),
    index('ip_cameras_device_idx').on(t.deviceRowId),
    unique('ip_cameras_owner_label_uq').on(t.ownerId, t.label),
  ],
);

/** §3 Physical camera, registered by its device's agent (camera_id unique per device). */
export const physicalCameras = pgTable(
  'physical_cameras',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceRowId: uuid('device_row_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    cameraId: text('camera_id').notNull(),
    name: text('name').notNull(),
    uniqueId: text('unique_id').notNull(),
    groupId: uuid('group_id').references(() => groups.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [unique('physical_cameras_device_camera_uq').on(t.deviceRowId, t.cameraId)],
);

/** §3 Stream limit per device (default 16 concurrent streams). */
export const streamLimits = pgTable('stream_limits', {
  deviceRowId: uuid('device_row_id')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  maxStreams: integer('max_streams').notNull().default(16),
});

/**
 * Saved camera page of a user (issue 3: "the layout survives a reload and a new sign-in on the same account";
 * §2 Camera control page, §3 Camera layout cell). One row per user; `streams` is a `SavedStream[]`
 * (src/protocol/rest.ts), validated on the way in by PUT camera-layout.
 */
export const cameraLayouts = pgTable('camera_layouts', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  streams: jsonb('streams')
    .notNull()
    .default(sql`'[]'::jsonb`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The server's Ed25519 signing keys as JWK (tokens and device grants; public half served as JWKS). */
export const serverKeys = pgTable('server_keys', {
  kid: text('kid').primaryKey(),
  alg: text('alg').notNull(),
  publicJwk: jsonb('public_jwk').notNull(),
  privateJwk: jsonb('private_jwk').notNull(),
  createdAt: createdAt(),
});

/** Default max_streams when a device has no stream_limits row. */
export const DEFAULT_MAX_STREAMS = 16;

/**
 * The environment catalogue (spec §2 /containers, /admin-panel/dockers; src/protocol/containers.ts
 * Environment): Docker images users can run on their devices. `tags` is an EnvTag[] (validated on the way in).
 * Containers live on the devices, not here.
 */
export const environments = pgTable('environments', {
  id: uuid('id').primaryKey().defaultRandom(),
  alias: text('alias').notNull().unique(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  image: text('image').notNull(),
  tags: jsonb('tags')
    .notNull()
    .default(sql`'[]'::jsonb`),
  jupyter: boolean('jupyter').notNull().default(false),
  jupyterPort: integer('jupyter_port').notNull().default(8888),
  gpu: boolean('gpu').notNull().default(true),
  public: boolean('public').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Agent releases the server publishes (issue 16 "Software"): a bundle the `host` agent downloads, checks
 * against `sha256` (hex) and installs. The bundle itself is a file in the server's data directory.
 */
export const agentReleases = pgTable('agent_releases', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Semantic version, e.g. '1.4.0'; one release per version. */
  version: text('version').notNull().unique(),
  /** File name of the bundle as uploaded. */
  fileName: text('file_name').notNull(),
  /** Bundle size in bytes. */
  size: bigint('size', { mode: 'number' }).notNull(),
  /** SHA-256 of the bundle, 64 lowercase hex digits. */
  sha256: text('sha256').notNull(),
  notes: text('notes').notNull().default(''),
  createdAt: createdAt(),
});
