/**
 * The admin panel's contract (spec §2 "/admin-panel (admin only) … Children: dockers, clients, engines (with
 * inferences and engine-backends), licences", §6 "Role admin is required for /admin-panel and its children";
 * issue 13 "Admin panel": users, clients, engines, audit log; §7 `POST /inference-url`).
 *
 * Every route here but `admin.inferenceUrl` has `auth: 'admin'`: the server answers 403 Forbidden to any other
 * signed-in user (src/server/routes/register.ts → requireAdmin); tests/unit/admin/adminRoutes.test.ts walks
 * the whole route table and checks it for every admin route.
 *
 * Lists are keyset-paged: an answer carries opaque `next` / `prev` cursors (null at an end); a request gives
 * one of them as `cursor` (or none for the first page, or `cursor=last` for the last page).
 */
import { z } from 'zod';
import { Role } from './accounts';
import { defineRoutes } from './route';

const Uuid = z.uuid().meta({ examples: ['2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11'] });
const IsoTime = z.iso.datetime({ offset: true });

/** Rows per page an admin list may ask for; default ADMIN_PAGE_DEFAULT. */
export const ADMIN_PAGE_MAX = 100;
export const ADMIN_PAGE_DEFAULT = 25;
/** A search counts its matches up to this many; beyond it the total is given as "more than". */
export const ADMIN_SEARCH_COUNT_CAP = 500;
/** Longest search text, characters. */
export const ADMIN_SEARCH_MAX_CHARS = 100;

/** Error codes of the admin routes (409s). */
export const ADMIN_ERROR_CODES = {
  lastAdmin: 'Last_admin',
  self: 'Own_account',
  backendExists: 'Engine_backend_exists',
  accountDisabled: 'Account_disabled',
} as const;

/** What a disabled user is told at sign-in (and when a token of theirs is refused). */
export const ACCOUNT_DISABLED_TEXT = 'This account has been disabled. Please contact your administrator.';

const Cursor = z.string().min(1).max(512);
const Search = z.string().max(ADMIN_SEARCH_MAX_CHARS).optional();
const PerPage = z.coerce.number().int().min(1).max(ADMIN_PAGE_MAX).default(ADMIN_PAGE_DEFAULT);
const Direction = z.enum(['asc', 'desc']);

/** Paging of an admin list answer. */
const Paging = {
  /** Cursor of the page after this one; null on the last page. */
  next: Cursor.nullable(),
  /** Cursor of the page before this one; null on the first page. */
  prev: Cursor.nullable(),
};

// ── users ──────────────────────────────────────────────────────────────────────────────────────────────────

export const UserSort = z.enum(['email', 'username', 'created_at']);
export type UserSort = z.infer<typeof UserSort>;
export const UserStatus = z.enum(['all', 'active', 'disabled']);
export type UserStatus = z.infer<typeof UserStatus>;

/** GET admin/users: search (email or username contains, case-insensitive), filters, sort, paging. */
export const AdminUsersQuery = z.object({
  search: Search,
  role: Role.optional(),
  status: UserStatus.default('all'),
  sort: UserSort.default('email'),
  dir: Direction.default('asc'),
  cursor: Cursor.optional(),
  per_page: PerPage,
});
export type AdminUsersQuery = z.input<typeof AdminUsersQuery>;

/** One user as the admin list shows it. */
export const AdminUser = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  roles: z.array(Role),
  email_confirmed: z.boolean(),
  /** Two-factor sign-in is enrolled and on. */
  two_factor: z.boolean(),
  /** ISO time the user was disabled; null when active. */
  disabled_at: z.string().nullable(),
  created_at: z.string(),
});
export type AdminUser = z.infer<typeof AdminUser>;

export const AdminUsersResponse = z.object({
  users: z.array(AdminUser),
  /** Users matching the filter; at most ADMIN_SEARCH_COUNT_CAP + 1 for a search (see total_capped). */
  total: z.number().int(),
  /** The search matched more than ADMIN_SEARCH_COUNT_CAP users: `total` is a lower bound. */
  total_capped: z.boolean(),
  ...Paging,
});
export type AdminUsersResponse = z.infer<typeof AdminUsersResponse>;

const UserParams = z.object({ id: Uuid });
/** PUT admin/users/{id}/roles: the user's whole role list (§6 roles: admin, user). */
export const SetRolesBody = z.object({ roles: z.array(Role).min(1).max(2) });
export const AdminUserResponse = z.object({ user: AdminUser });

// ── clients ────────────────────────────────────────────────────────────────────────────────────────────────

export const ClientState = z.enum(['all', 'online', 'offline']);
/** GET admin/clients: devices of every user; search (label, client name, peer id or owner email contains). */
export const AdminClientsQuery = z.object({
  search: Search,
  state: ClientState.default('all'),
  cursor: Cursor.optional(),
  per_page: PerPage,
});
export type AdminClientsQuery = z.input<typeof AdminClientsQuery>;

export const AdminClient = z.object({
  id: z.string(),
  device_id: z.string(),
  label: z.string(),
  client_name: z.string(),
  /** §3 "a client version field"; null until the agent reports it. */
  client_version: z.string().nullable(),
  /** '0' = x86, anything else = Jetson (§9). */
  chipset_id: z.string(),
  jetpack: z.string().nullable(),
  owner: z.object({ id: z.string(), email: z.string(), username: z.string() }),
  /** Registered with signalling now (as the device list's is_active). */
  online: z.boolean(),
  /** ISO time it last connected to or left signalling; null when never seen. */
  last_seen: z.string().nullable(),
  created_at: z.string(),
});
export type AdminClient = z.infer<typeof AdminClient>;

export const AdminClientsResponse = z.object({
  clients: z.array(AdminClient),
  /** Devices matching the filter (capped like the users' search total). */
  total: z.number().int(),
  total_capped: z.boolean(),
  /** Devices online now, whatever the filter. */
  online: z.number().int(),
  ...Paging,
});
export type AdminClientsResponse = z.infer<typeof AdminClientsResponse>;

// ── engine backends and §7 inference-url ───────────────────────────────────────────────────────────────────

/** 'jetpack': `version` is a JetPack release prefix; 'driver': the lowest NVIDIA driver major version (x86). */
export const EnginePlatform = z.enum(['jetpack', 'driver']);
export type EnginePlatform = z.infer<typeof EnginePlatform>;
/** A version as devices report it: digits and dots ('5.1', '6.0.1', '535', '535.183.01'). */
export const VersionText = z
  .string()
  .regex(/^\d{1,6}(\.\d{1,6}){0,3}$/, 'Use digits and dots, e.g. 5.1 or 535.')
  .max(30)
  .meta({ examples: ['5.1', '6.0', '535', '535.183.01'] });
/** A container image reference: [registry/]name[:tag][@digest]. */
export const ImageName = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[a-z0-9]([a-z0-9._/:@-]*[a-z0-9])?$/, 'Use an image name such as edge/inference-engine:l4t-r35.4.')
  .meta({ examples: ['edge/inference-engine:l4t-r35.4', 'nvcr.io/nvidia/deepstream:7.1-triton-multiarch'] });

export const EngineBackendInput = z.object({
  platform: EnginePlatform,
  version: VersionText,
  image: ImageName,
  note: z.string().max(200).default(''),
});
export type EngineBackendInput = z.input<typeof EngineBackendInput>;

export const EngineBackend = z.object({
  id: z.string(),
  platform: EnginePlatform,
  version: z.string(),
  image: z.string(),
  note: z.string(),
  updated_at: z.string(),
});
export type EngineBackend = z.infer<typeof EngineBackend>;

const BackendParams = z.object({ id: Uuid });

/** §7 POST inference-url: jetpack_version, driver_version (one null) → data: engine image name or false. */
export const InferenceUrlBody = z
  .object({
    jetpack_version: z.string().max(30).nullable(),
    driver_version: z.string().max(30).nullable(),
  })
  .refine((b) => (b.jetpack_version === null) !== (b.driver_version === null), {
    message: 'Give exactly one of jetpack_version and driver_version; the other is null.',
  })
  // Checked by code (the refine): its examples are the valid shapes the fuzz harness starts from.
  .meta({
    examples: [
      { jetpack_version: '5.1', driver_version: null },
      { jetpack_version: null, driver_version: '535' },
    ],
  });
export const InferenceUrlResponse = z.object({ data: z.union([z.string(), z.literal(false)]) });

// ── inference jobs (read-only) ─────────────────────────────────────────────────────────────────────────────

/** GET admin/inferences: every user's inference jobs (§3 Job), newest first; search and §4 state filter. */
export const AdminInferencesQuery = z.object({
  search: Search,
  state: z.enum(['created', 'deploying', 'started', 'error', 'stopped']).optional(),
  cursor: Cursor.optional(),
  per_page: PerPage,
});
export type AdminInferencesQuery = z.input<typeof AdminInferencesQuery>;

export const AdminInference = z.object({
  id: z.string(),
  job_name: z.string(),
  application_name: z.string(),
  /** §4 job state: created, deploying, started, error, stopped. */
  state: z.string(),
  camera_label: z.string(),
  owner_email: z.string(),
  device_label: z.string(),
  device_id: z.string(),
  /** §3 inferenceEngineError the device last reported, else null. */
  error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AdminInference = z.infer<typeof AdminInference>;

export const AdminInferencesResponse = z.object({
  jobs: z.array(AdminInference),
  total: z.number().int(),
  total_capped: z.boolean(),
  ...Paging,
});

// ── audit log ──────────────────────────────────────────────────────────────────────────────────────────────

/** Actions the server writes (others — e.g. licence actions — are free text of the same dotted form). */
export const AUDIT_ACTIONS = [
  'user.roles',
  'user.disable',
  'user.enable',
  'user.reset_two_factor',
  'engine_backend.create',
  'engine_backend.update',
  'engine_backend.delete',
  'licence.grant',
  'licence.revoke',
  // A refresh token used again after its rotation: the session ended (src/server/auth/sessions.ts).
  'session.refresh_reuse',
  // Security events about a user's own account (src/server/audit/security.ts).
  'auth.sign_in',
  'auth.sign_in_failed',
  'auth.sign_out',
  'account.password_change',
  'account.password_reset',
  'account.email_change',
  'account.password_check_failed',
  'account.two_factor_enabled',
  'account.two_factor_disabled',
  'api_key.create',
  'api_key.revoke',
] as const;

/** GET admin/audit-log: newest first; actor (email contains), action (exact), time window [from, to). */
export const AuditQuery = z.object({
  actor: Search,
  action: z
    .string()
    .max(64)
    .regex(/^[a-z_.]*$/, 'An action is dotted lower-case words, e.g. user.disable.')
    .optional(),
  from: IsoTime.optional(),
  to: IsoTime.optional(),
  cursor: Cursor.optional(),
  per_page: PerPage,
});
export type AuditQuery = z.input<typeof AuditQuery>;

export const AuditEntry = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({ id: z.string(), email: z.string().nullable() }),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  /** Email of the target user when the target is a user that still exists. */
  target_label: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditResponse = z.object({ entries: z.array(AuditEntry), ...Paging });
export type AuditResponse = z.infer<typeof AuditResponse>;

export const adminRoutes = defineRoutes({
  'admin.users': {
    method: 'GET',
    path: '/api/admin/users',
    auth: 'admin',
    summary: 'Every user: search, role and status filters, sort, keyset paging (issue 13 /admin-panel/users)',
    query: AdminUsersQuery,
    answer: AdminUsersResponse,
  },
  'admin.setRoles': {
    method: 'PUT',
    path: '/api/admin/users/:id/roles',
    auth: 'admin',
    summary: 'Set a user’s roles (§6); 409 Last_admin when it would leave no active admin',
    params: UserParams,
    body: SetRolesBody,
    answer: AdminUserResponse,
    errors: [404, 409],
  },
  'admin.disableUser': {
    method: 'POST',
    path: '/api/admin/users/:id/disable',
    auth: 'admin',
    summary:
      'Disable a user: sign-in refused, every token refused at once; 409 for oneself or the last admin',
    params: UserParams,
    answer: AdminUserResponse,
    errors: [404, 409],
  },
  'admin.enableUser': {
    method: 'POST',
    path: '/api/admin/users/:id/enable',
    auth: 'admin',
    summary: 'Enable a disabled user again',
    params: UserParams,
    answer: AdminUserResponse,
    errors: [404],
  },
  'admin.resetTwoFactor': {
    method: 'POST',
    path: '/api/admin/users/:id/reset-two-factor',
    auth: 'admin',
    summary:
      'Remove a user’s two-factor enrolment (they sign in with the password alone, then may enrol again)',
    params: UserParams,
    answer: AdminUserResponse,
    errors: [404],
  },
  'admin.clients': {
    method: 'GET',
    path: '/api/admin/clients',
    auth: 'admin',
    summary:
      'Devices of every user with owner, online state, client version, last seen (/admin-panel/clients)',
    query: AdminClientsQuery,
    answer: AdminClientsResponse,
  },
  'admin.engineBackends': {
    method: 'GET',
    path: '/api/admin/engine-backends',
    auth: 'admin',
    summary:
      'The JetPack / driver version → inference engine image table (/admin-panel/engines/engine-backends)',
    answer: z.object({ backends: z.array(EngineBackend) }),
  },
  'admin.createEngineBackend': {
    method: 'POST',
    path: '/api/admin/engine-backends',
    auth: 'admin',
    summary: 'Add an engine backend; 409 when its platform and version are taken',
    body: EngineBackendInput,
    answer: z.object({ backend: EngineBackend }),
    errors: [409],
  },
  'admin.updateEngineBackend': {
    method: 'PUT',
    path: '/api/admin/engine-backends/:id',
    auth: 'admin',
    summary: 'Change an engine backend; 409 when its new platform and version are taken',
    params: BackendParams,
    body: EngineBackendInput,
    answer: z.object({ backend: EngineBackend }),
    errors: [404, 409],
  },
  'admin.deleteEngineBackend': {
    method: 'DELETE',
    path: '/api/admin/engine-backends/:id',
    auth: 'admin',
    summary: 'Remove an engine backend',
    params: BackendParams,
    answer: z.object({ deleted: z.literal(true) }),
    errors: [404],
  },
  'admin.inferenceUrl': {
    method: 'POST',
    path: '/api/inference-url',
    auth: 'userOrDevice',
    summary: '§7 inference-url: the inference engine image for a JetPack or a driver version, or false',
    body: InferenceUrlBody,
    answer: InferenceUrlResponse,
  },
  'admin.inferences': {
    method: 'GET',
    path: '/api/admin/inferences',
    auth: 'admin',
    summary: 'Inference jobs of every user, read-only (/admin-panel/engines/inferences)',
    query: AdminInferencesQuery,
    answer: AdminInferencesResponse,
  },
  'admin.auditLog': {
    method: 'GET',
    path: '/api/admin/audit-log',
    auth: 'admin',
    summary: 'Every admin action, newest first; filter by actor, action, time (/admin-panel/audit-log)',
    query: AuditQuery,
    answer: AuditResponse,
  },
});
