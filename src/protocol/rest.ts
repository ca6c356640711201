/**
 * REST contracts of spec §7 (server calls) shared by the console and the server, validated at runtime.
 * Paths are relative to `API_BASE` ('/api/'). Requests carry `Authorization: Token {token}`.
 * Every error answer has the shape `ApiError`; `code` is machine-readable (e.g. 'Token_expired').
 */
import { z } from 'zod';

/** Error answer of every route: `{ code, message }`; message is a §8 text where the spec gives one. */
export const ApiError = z.object({ code: z.string(), message: z.string() });
export type ApiError = z.infer<typeof ApiError>;

/** Error codes the console acts on (spec §4 auth, §8); defined in errors.ts (no zod). */
export { API_ERROR_CODES } from './errors';

export const Role = z.enum(['admin', 'user']);
export type Role = z.infer<typeof Role>;

/** §3 User info. */
export const UserInfo = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  bio: z.string().nullable(),
  image: z.string().nullable(),
  roles: z.array(Role),
});
export type UserInfo = z.infer<typeof UserInfo>;

/** POST login — §4 §5. */
export const LoginRequest = z.object({
  email: z.string().trim().email(),
  password: z.string().min(1),
});
export type LoginRequest = z.infer<typeof LoginRequest>;
/** status 1 = confirm mail (no tokens), status 2 = logged in. */
export const LoginResponse = z.discriminatedUnion('status', [
  z.object({ status: z.literal(1), message: z.string() }),
  z.object({
    status: z.literal(2),
    token: z.string(),
    refresh_token: z.string(),
    user_info: UserInfo,
  }),
]);
export type LoginResponse = z.infer<typeof LoginResponse>;

/** POST new_access_token with header Refresh-Token → data.token (refresh token rotates: data.refresh_token). */
export const NewAccessTokenResponse = z.object({
  data: z.object({ token: z.string(), refresh_token: z.string() }),
});
export type NewAccessTokenResponse = z.infer<typeof NewAccessTokenResponse>;

/** GET user-info → user_info. */
export const UserInfoResponse = z.object({ user_info: UserInfo });

/** §3 Device as listed by the server. */
export const Device = z.object({
  id: z.string(),
  decrypted_id: z.string(),
  device_id: z.string(),
  label: z.string(),
  client_name: z.string(),
  api_url: z.string().nullable(),
  is_active: z.boolean(),
  /** JSON string; parsed by the console (includes driver_version). */
  device_params: z.string(),
  client_version: z.string().nullable(),
  jetpack: z.string().nullable(),
  /** '0' = x86, anything else = Jetson (§9). */
  chipset_id: z.string(),
  group_id: z.string().nullable(),
  created_at: z.string(),
});
export type Device = z.infer<typeof Device>;

export const DeviceOrderBy = z.enum(['label', 'client_name', 'created_at', 'is_active']);
/** GET get_devices/ query — §7, defaults §9. */
export const GetDevicesQuery = z.object({
  per_page: z.coerce.number().int().min(1).max(100).default(5),
  page: z.coerce.number().int().min(1).default(1),
  order_by: DeviceOrderBy.default('label'),
  order_as: z.enum(['asc', 'desc']).default('asc'),
  search: z.string().max(100).optional(),
  group_id: z.string().optional(),
});
export type GetDevicesQuery = z.input<typeof GetDevicesQuery>;
export const GetDevicesResponse = z.object({
  res: z.array(Device),
  total_items: z.number().int(),
  active_devices_count: z.number().int(),
});
export type GetDevicesResponse = z.infer<typeof GetDevicesResponse>;

/** GET get-online-devices → onlineDevices (device_id list), ok, message. */
export const OnlineDevicesResponse = z.object({
  onlineDevices: z.array(z.string()),
  ok: z.boolean(),
  message: z.string(),
});

/** DELETE device { ids } → deleted count. */
export const DeleteDevicesRequest = z.object({ ids: z.array(z.string()).min(1).max(100) });
export const DeleteDevicesResponse = z.object({ ok: z.boolean(), deleted: z.number().int() });

/** POST generate_token { id } → result.access_token (device token, 60 days, §9). */
export const GenerateTokenRequest = z.object({ id: z.string() });
export const GenerateTokenResponse = z.object({ result: z.object({ access_token: z.string() }) });

/** §3 Group: a tree with children. GET groups?group_type=camera|device. */
export interface Group {
  id: string;
  name: string;
  group_type: 'camera' | 'device';
  children: Group[];
}
export const Group: z.ZodType<Group> = z.lazy(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    group_type: z.enum(['camera', 'device']),
    children: z.array(Group),
  }),
);
export const GroupsQuery = z.object({ group_type: z.enum(['camera', 'device']).default('device') });
export const GroupsResponse = z.object({ groups: z.array(Group) });

/** §3 IP camera, listed from the server. */
export const IpCamera = z.object({
  id: z.string(),
  label: z.string(),
  url: z.string(),
  camera_type: z.literal('ip'),
  /** The device that can reach it (streams through that device's agent). */
  deviceId: z.string().nullable(),
  group_id: z.string().nullable(),
});
export type IpCamera = z.infer<typeof IpCamera>;
/** §3 Physical camera, registered by a device. */
export const PhysicalCamera = z.object({
  id: z.string(),
  uniqueCameraId: z.string(),
  camera_id: z.string(),
  device_id: z.string(),
  name: z.string(),
  label: z.string(),
  unique_id: z.string(),
  camera_type: z.literal('physical'),
  group_id: z.string().nullable(),
});
export type PhysicalCamera = z.infer<typeof PhysicalCamera>;
export const CamerasQuery = z.object({ group_id: z.string().optional() });
export const IpCamerasResponse = z.object({ data: z.object({ data: z.array(IpCamera) }) });
export const PhysicalCamerasResponse = z.object({ data: z.object({ data: z.array(PhysicalCamera) }) });

/** POST get_browser_token { browser_id } → servers (ICE), token (signalling token for that peer id). */
export const BrowserTokenRequest = z.object({ browser_id: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/) });
export const IceServer = z.object({
  urls: z.union([z.string(), z.array(z.string())]),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServer = z.infer<typeof IceServer>;
export const BrowserTokenResponse = z.object({ servers: z.array(IceServer), token: z.string() });

/** GET ice-servers?deviceId → servers. */
export const IceServersQuery = z.object({ deviceId: z.string().optional() });
export const IceServersResponse = z.object({ servers: z.array(IceServer) });

/**
 * POST device-grant { device_id, browser_id } → a short-lived signed grant (EdDSA JWT) the agent verifies
 * before it answers any command (ARCHITECTURE "The device link"). Not a spec §7 call: it is how the server
 * decides who may reach a device.
 */
export const DeviceGrantRequest = z.object({ device_id: z.string(), browser_id: z.string() });
export const DeviceGrantResponse = z.object({ grant: z.string(), expires_at: z.number() });
/** Claims inside a grant. */
export const DeviceGrantClaims = z.object({ sub: z.string(), device_id: z.string(), browser_id: z.string() });
export type DeviceGrantClaims = z.infer<typeof DeviceGrantClaims>;

/** GET usage/check_stream_limit?deviceId&numOfCameras → is_quota_available. */
export const CheckStreamLimitQuery = z.object({
  deviceId: z.string(),
  numOfCameras: z.coerce.number().int().min(1).max(64),
});
export const CheckStreamLimitResponse = z.object({ is_quota_available: z.boolean() });
/** GET usage/all_stream_limits → stream_limits. */
export const StreamLimit = z.object({ deviceId: z.string(), max_streams: z.number().int() });
export const AllStreamLimitsResponse = z.object({ stream_limits: z.array(StreamLimit) });

/** GET peerjs/peerjs/{device_id} → isOnline. GET check/peerjs/{device_id} → exist. */
export const PresenceResponse = z.object({ isOnline: z.boolean() });
export const ExistResponse = z.object({ exist: z.boolean() });

/**
 * GET .well-known/jwks.json — the server's public keys; agents verify device grants with them.
 * Agent-facing: POST device/register-cameras (device token) registers the device's physical cameras.
 */
export const RegisterCamerasRequest = z.object({
  cameras: z.array(z.object({ camera_id: z.string(), name: z.string(), unique_id: z.string() })).max(64),
});

/** §3 Camera layout cell (react-grid-layout item): grid units; i = the stream's layout key. */
export const LayoutCell = z.object({
  i: z.string().min(1).max(200),
  x: z.number().int().min(0).max(11),
  y: z.number().int().min(0).max(10_000),
  w: z.number().int().min(1).max(12),
  h: z.number().int().min(1).max(48),
  minW: z.number().int().min(1).max(12).optional(),
  static: z.boolean().optional(),
  plus: z.boolean().optional(),
});
export type LayoutCell = z.infer<typeof LayoutCell>;
/**
 * A saved camera page (§2 Camera control page): which cameras are open on which grid page, and where.
 * `key` identifies a camera: `${device_id}:${camera_id}` for physical cameras, `ip:${ip_camera_id}` for IP
 * cameras. Not a spec §7 call: the layout "survives a reload and a new sign-in on the same account"
 * (issue 3), so it is stored per user on the server.
 */
export const SavedStream = z.object({
  key: z.string().min(1).max(200),
  deviceId: z.string().min(1).max(100),
  cameraId: z.string().min(1).max(200),
  page: z.number().int().min(0).max(100),
  cell: LayoutCell,
  resolution: z
    .object({
      pixel_format: z.string().max(32),
      width: z.number().int().positive().max(8192),
      height: z.number().int().positive().max(8192),
      fps: z.number().positive().max(240),
    })
    .nullable()
    .optional(),
});
export type SavedStream = z.infer<typeof SavedStream>;
/** GET camera-layout → { streams, updated_at }; PUT camera-layout { streams } → same. At most 12 per page. */
export const CameraLayout = z.object({ streams: z.array(SavedStream).max(1200) });
export type CameraLayout = z.infer<typeof CameraLayout>;
export const CameraLayoutResponse = CameraLayout.extend({ updated_at: z.string().nullable() });

/**
 * Agent-facing: GET device/ip-cameras (device token) → the IP cameras this device pulls (§3 IP camera:
 * "stream through the device that can reach them"). url: rtsp://, http(s)://, or sim:// (simulated IP
 * camera of the sim backend — no network camera exists on a demo machine).
 */
export const DeviceIpCamerasResponse = z.object({
  cameras: z.array(z.object({ id: z.string(), label: z.string(), url: z.string() })),
});
