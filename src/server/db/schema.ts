/**
 * Database schema (drizzle-orm, PostgreSQL). Entities of spec §3 that the server owns: users, devices,
 * groups, cameras, stream limits; plus refresh tokens and the server's signing keys.
 * Migrations are generated from this file with `npx drizzle-kit generate` into /drizzle.
 */
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

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** §3 User info; roles per §6 ('admin' | 'user'). email is stored lower-case. */
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
  },
  (t) => [
    // The admin user list (issue 13): keyset sort orders and trigram search (pg_trgm, migration 0005).
    index('users_username_key_idx').on(t.usernameKey, t.id),
    index('users_created_idx').on(t.createdAt, t.id),
    index('users_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    index('users_username_trgm_idx').using('gin', t.username.op('gin_trgm_ops')),
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
    createdAt: createdAt(),
  },
  (t) => [index('refresh_tokens_user_idx').on(t.userId)],
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

// ---- models (issue 9): the model repository and model deployments to devices ----

/**
 * A model of the repository (issue 9 "Models"), owned by the user who created it. id: spec §5 "Model ids get
 * prefix M when they have classes, otherwise P" + 11 uppercase letters/digits (src/server/models/ids.ts).
 * task: what it does (e.g. 'object-detection', 'llm'); format: the file format of its versions (onnx,
 * tensorrt, pytorch, tflite, safetensors, gguf, zip); classes: its output labels (empty for none);
 * input_width/height: input size in pixels (null when not an image model).
 */
export const models = pgTable(
  'models',
  {
    id: text('id').primaryKey(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    task: text('task').notNull(),
    format: text('format').notNull(),
    classes: text('classes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    inputWidth: integer('input_width'),
    inputHeight: integer('input_height'),
    description: text('description').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('models_owner_name_uq').on(t.ownerId, t.name),
    index('models_owner_updated_idx').on(t.ownerId, t.updatedAt),
  ],
);

/**
 * One uploaded file of a model (issue 9 "versions"): version is 1, 2, … per model; size in bytes; sha256 64
 * lowercase hex digits. The file is `DATA_DIR/models/<model id>/<version id>` on the server.
 * uploaded_by: the user who uploaded it (null once that user is deleted).
 */
export const modelVersions = pgTable(
  'model_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    modelId: text('model_id')
      .notNull()
      .references(() => models.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    fileName: text('file_name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    notes: text('notes').notNull().default(''),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [unique('model_versions_model_version_uq').on(t.modelId, t.version)],
);

/**
 * A model version deployed to a device (issue 9 "Deploy"), as the device reports it with its token: state
 * queued → downloading → verifying → installed | failed | canceled; bytes_done / bytes_total in bytes; error
 * code and message of a failed one. One row per device and version (a new deploy of the same version reuses it).
 */
export const modelDeployments = pgTable(
  'model_deployments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    modelId: text('model_id')
      .notNull()
      .references(() => models.id, { onDelete: 'cascade' }),
    versionId: uuid('version_id')
      .notNull()
      .references(() => modelVersions.id, { onDelete: 'cascade' }),
    state: text('state').notNull().default('queued'),
    bytesDone: bigint('bytes_done', { mode: 'number' }).notNull().default(0),
    bytesTotal: bigint('bytes_total', { mode: 'number' }).notNull().default(0),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('model_deployments_device_version_uq').on(t.deviceId, t.versionId),
    index('model_deployments_owner_updated_idx').on(t.ownerId, t.updatedAt),
    check(
      'model_deployments_state_ck',
      sql`${t.state} in ('queued', 'downloading', 'verifying', 'installed', 'failed', 'canceled')`,
    ),
  ],
);

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

// ── accounts (issue 13): single-use mailed links and two-factor sign-in ──────────────────────────────────────

/**
 * Single-use account tokens, stored as SHA-256 of the secret only: 'confirm_mail' (/confirm-mail/{token}, 24 h),
 * 'reset_password' (/forgot-password/{token}, 1 h), 'two_factor' (the login challenge of verify-2fa-auth, 10 min;
 * `code_hash` holds a mailed one-time code from resend-verify-code, `attempts` counts wrong codes).
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    codeHash: text('code_hash'),
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('account_tokens_user_purpose_idx').on(t.userId, t.purpose),
    check('account_tokens_purpose_ck', sql`${t.purpose} in ('confirm_mail', 'reset_password', 'two_factor')`),
  ],
);

/**
 * TOTP (RFC 6238, SHA-1, 6 digits, 30 s) per user: the secret sealed with the server's secret box; `enabled_at`
 * null while enrolment is pending; recovery codes as SHA-256 hashes (a used one is removed); `last_step` refuses
 * a code's replay.
 */
export const userTwoFactor = pgTable('user_two_factor', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretSealed: text('secret_sealed').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  recoveryCodes: text('recovery_codes')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  lastStep: bigint('last_step', { mode: 'number' }).notNull().default(0),
  createdAt: createdAt(),
});

// ---- applications (issue 9): a model version paired with its pipeline settings ----

/**
 * An application (spec §2 /applications; §3 "Model/application list"): one of its owner's model versions with
 * the pipeline settings an inference job starts with. input_source: 'camera' | 'ip-camera' | 'video-file' |
 * 'rtsp'; input_width/height: frame size in pixels (null: the model's input size); fps: frames per second;
 * threshold: detection threshold 0–1 (§9 default 0.3); classes: detected classes, a subset of the model's
 * (empty: all); tracker: 'none' | 'iou' | 'sort' | 'deepsort' | 'bytetrack' | 'nvdcf'. Deleting the model
 * version (or its model) deletes its applications. Names are unique per owner.
 */
export const applications = pgTable(
  'applications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    modelVersionId: uuid('model_version_id')
      .notNull()
      .references(() => modelVersions.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    inputSource: text('input_source').notNull().default('camera'),
    inputWidth: integer('input_width'),
    inputHeight: integer('input_height'),
    fps: integer('fps').notNull().default(25),
    threshold: doublePrecision('threshold').notNull().default(0.3),
    classes: text('classes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    tracker: text('tracker').notNull().default('none'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('applications_owner_name_uq').on(t.ownerId, t.name),
    index('applications_owner_updated_idx').on(t.ownerId, t.updatedAt),
    index('applications_model_version_idx').on(t.modelVersionId),
    check('applications_threshold_ck', sql`${t.threshold} >= 0 and ${t.threshold} <= 1`),
  ],
);

// ---- admin panel (issue 13): audit log and engine backends ----

/**
 * Every admin action (issue 13 "Admin panel": role change, disable, enable, two-factor reset, engine-backend
 * change, licence grant/revoke), written through src/server/audit `writeAudit`. actor_id is not a foreign key
 * (the record outlives the account); target_id is text (user ids, device ids, backend ids, licence ids);
 * details is the action's own data (e.g. { from, to } roles); ip is the request's address when known.
 */
export const adminAuditLog = pgTable(
  'admin_audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid('actor_id').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    details: jsonb('details')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    ip: text('ip'),
  },
  (t) => [
    // The audit list (newest first, keyset on (at, id)), whole or by actor or action.
    index('admin_audit_log_at_idx').on(t.at, t.id),
    index('admin_audit_log_actor_at_idx').on(t.actorId, t.at, t.id),
    index('admin_audit_log_action_at_idx').on(t.action, t.at, t.id),
  ],
);

/**
 * §7 `POST /inference-url`: which inference engine image runs on a device, by JetPack version (Jetson) or by
 * NVIDIA driver version (x86). platform 'jetpack': `version` is a JetPack release prefix ('5.1' matches 5.1,
 * 5.1.2; the longest matching prefix wins); platform 'driver': `version` is the lowest driver major version the
 * image needs ('535' matches 535.x and newer; the highest one not above the device's wins). Admin-managed
 * (/admin-panel/engines/engine-backends).
 */
export const engineBackends = pgTable(
  'engine_backends',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    platform: text('platform').notNull(),
    version: text('version').notNull(),
    image: text('image').notNull(),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('engine_backends_platform_version_uq').on(t.platform, t.version),
    check('engine_backends_platform_ck', sql`${t.platform} in ('jetpack', 'driver')`),
  ],
);

/**
 * Licences (spec §1 "licences"; issue 13 "Licences per device or feature with expiry"): what a user may use
 * beyond the free tier, from `starts_at` until `expires_at`. scope 'device': bound to one of the owner's devices
 * (`device_row_id`; the device id is kept in `device_id` so a licence of a deleted device still reads), granting
 * `max_streams` concurrent streams on it; scope 'feature': account-wide, granting the listed `features`.
 * Revoked licences keep their row (`revoked_at`, `revoked_by`). `order_id` is unique: one licence per paid order
 * (idempotent on the payment). src/server/billing/licences.ts reads and writes them.
 */
export const licences = pgTable(
  'licences',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    planId: text('plan_id').notNull(),
    scope: text('scope').notNull(),
    deviceRowId: uuid('device_row_id').references(() => devices.id, { onDelete: 'set null' }),
    deviceId: text('device_id'),
    maxStreams: integer('max_streams'),
    features: text('features')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    source: text('source').notNull(),
    orderId: uuid('order_id').unique(),
    grantedBy: uuid('granted_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: uuid('revoked_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('licences_user_idx').on(t.userId, t.expiresAt),
    index('licences_device_idx').on(t.deviceRowId),
    index('licences_created_idx').on(t.createdAt, t.id),
    check('licences_scope_ck', sql`${t.scope} in ('device', 'feature')`),
    check('licences_source_ck', sql`${t.source} in ('purchase', 'admin')`),
    check('licences_period_ck', sql`${t.expiresAt} > ${t.startsAt}`),
  ],
);

/**
 * §3 Payment card (id, last4, default) of a user, as the payment provider reported it. Never a card number or
 * CVC: brand, last4 and expiry only; `provider_ref` is the provider's own reference (Stripe payment method id;
 * the offline test provider's token).
 */
export const paymentCards = pgTable(
  'payment_cards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerRef: text('provider_ref'),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('payment_cards_user_idx').on(t.userId)],
);

/** §3 Address (id, default) with the selected-address fields a user saved for invoices. */
export const billingAddresses = pgTable(
  'billing_addresses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addressName: text('address_name').notNull(),
    name: text('name').notNull(),
    identityNumber: text('identity_number').notNull().default(''),
    companyName: text('company_name').notNull().default(''),
    taxOffice: text('tax_office').notNull().default(''),
    taxNumber: text('tax_number').notNull().default(''),
    address: text('address').notNull(),
    phone: text('phone').notNull().default(''),
    country: text('country').notNull(),
    city: text('city').notNull(),
    postalCode: text('postal_code').notNull().default(''),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('billing_addresses_user_idx').on(t.userId)],
);

/**
 * One checkout: a plan bought by a user (for a device when the plan is per device), its amount, the provider and
 * its reference (`provider_ref`, unique: a payment or webhook is applied once), and its state
 * (pending → paid | failed). `address` is the billing address as it was at payment (jsonb snapshot).
 */
export const paymentOrders = pgTable(
  'payment_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    planId: text('plan_id').notNull(),
    deviceRowId: uuid('device_row_id').references(() => devices.id, { onDelete: 'set null' }),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    provider: text('provider').notNull(),
    providerRef: text('provider_ref').unique(),
    status: text('status').notNull().default('pending'),
    failureMessage: text('failure_message'),
    cardId: uuid('card_id').references(() => paymentCards.id, { onDelete: 'set null' }),
    address: jsonb('address').$type<Record<string, unknown>>(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('payment_orders_user_idx').on(t.userId, t.createdAt),
    check('payment_orders_status_ck', sql`${t.status} in ('pending', 'paid', 'failed')`),
  ],
);

/**
 * Messages of the public contact form (/contact): stored, then mailed to CONTACT_MAIL_TO (`mailed_at` once
 * sent). `user_id` when the sender was signed in; `priority` when that user held the priority-support feature.
 */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    priority: boolean('priority').notNull().default(false),
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('contact_messages_created_idx').on(t.createdAt)],
);

// ── profile (issue 13): API keys, avatars, tunnel traffic per day, device token issue times ─────────────────
import { date, primaryKey } from 'drizzle-orm/pg-core';

/**
 * API keys (issue 13 "keys-secrets", Grafana-style): a user's named keys for REST calls with
 * `Authorization: Token edk_…`. Only the SHA-256 (hex) of the secret is kept; `prefix` (the first 12
 * characters) names it in lists. scope 'read' = GET routes only, 'full' = every route the user may call
 * (src/server/profile/apiKeys.ts). expires_at null = never; last_used_at is written at most once a minute.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scope: text('scope').notNull(),
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('api_keys_user_created_idx').on(t.userId, t.createdAt),
    check('api_keys_scope_ck', sql`${t.scope} in ('read', 'full')`),
  ],
);

/**
 * A user's avatar (§3 User info `image`): the file is `DATA_DIR/avatars/<user id>`; size in bytes, sha256 hex,
 * content_type one of image/png, image/jpeg, image/webp, image/gif (sniffed from the bytes, not the name).
 */
export const userAvatars = pgTable('user_avatars', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  contentType: text('content_type').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  sha256: text('sha256').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Bytes relayed through the server's reverse tunnel (src/server/tunnel/) per device and UTC day, both
 * directions, added in batches by src/server/profile/traffic.ts (never per packet).
 */
export const tunnelTraffic = pgTable(
  'tunnel_traffic',
  {
    deviceRowId: uuid('device_row_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    bytesFromDevice: bigint('bytes_from_device', { mode: 'number' }).notNull().default(0),
    bytesToDevice: bigint('bytes_to_device', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.deviceRowId, t.day] })],
);

/**
 * When each device's current token was issued (§9 device token expiry 60 days): written by a trigger on
 * devices.token_jti (migration profile_tables), so every path that issues a token is seen without touching it.
 * Devices whose token predates the trigger have no row.
 */
export const deviceTokenIssues = pgTable('device_token_issues', {
  deviceRowId: uuid('device_row_id')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  jti: uuid('jti').notNull(),
  issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * How many users there are, kept by statement-level triggers on `users` (migration 0012): the admin user
 * list's total without counting every row per page (issue 13 bench: 100,000 users). One row (id = 1).
 */
export const userCounts = pgTable('user_counts', {
  id: integer('id').primaryKey().default(1),
  n: bigint('n', { mode: 'number' }).notNull().default(0),
});

/**
 * When each device was last registered with signalling (the admin clients list's "last seen", issue 13):
 * written by the server when the device's signalling presence changes (connects or leaves).
 */
export const deviceLastSeen = pgTable('device_last_seen', {
  deviceId: text('device_id')
    .primaryKey()
    .references(() => devices.deviceId, { onDelete: 'cascade' }),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
});

// ---- inference jobs (issue 10) ----

/**
 * §3 Job: one application run on one camera of one device of its owner. job_name; application_name (kept
 * when the application is deleted: application_id then null); cameras: camera ids (one today); state: §4 job
 * events 'created' | 'deploying' | 'started' | 'error' | 'stopped'; options: the start options (resolution,
 * threshold, recording, engine) as JSON; runtime: the §3 runtime fields the device last reported (jobId,
 * childJobId, port, scriptPath, inferenceUrl, containerName, inferenceEngineError, message) as JSON.
 */
export const inferenceJobs = pgTable(
  'inference_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceRowId: uuid('device_row_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    applicationId: uuid('application_id').references(() => applications.id, { onDelete: 'set null' }),
    jobName: text('job_name').notNull(),
    applicationName: text('application_name').notNull(),
    cameras: text('cameras')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    cameraLabel: text('camera_label').notNull().default(''),
    state: text('state').notNull().default('created'),
    options: jsonb('options').notNull(),
    runtime: jsonb('runtime').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('inference_jobs_owner_idx').on(t.ownerId, t.createdAt)],
);

/**
 * Schedulers (issue 10 `/schedulers`; src/protocol/schedulers.ts): a user's calendars of recurring weekly
 * intervals in an IANA zone (intervals: CalendarInterval[] as JSON), and the jobs each one starts and stops.
 * A job belongs to at most one calendar (job_id is the key); deleting either side removes the link.
 */
export const schedulingCalendars = pgTable(
  'scheduling_calendars',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    timeZone: text('time_zone').notNull(),
    intervals: jsonb('intervals').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('scheduling_calendars_owner_name_uq').on(t.ownerId, t.name)],
);

export const schedulingCalendarJobs = pgTable('scheduling_calendar_jobs', {
  jobId: uuid('job_id')
    .primaryKey()
    .references(() => inferenceJobs.id, { onDelete: 'cascade' }),
  calendarId: uuid('calendar_id')
    .notNull()
    .references(() => schedulingCalendars.id, { onDelete: 'cascade' }),
});
