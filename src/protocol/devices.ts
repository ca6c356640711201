/**
 * Devices (spec §3 Device, Group; §7 get_devices/, get-online-devices, device, generate_token, groups; §9
 * table defaults). Every call is scoped to the caller: a user never sees another's devices.
 */
import { z } from 'zod';
import { defineRoutes, Id } from './route';

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
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  order_by: DeviceOrderBy.default('label'),
  order_as: z.enum(['asc', 'desc']).default('asc'),
  search: z.string().max(100).optional(),
  group_id: Id.optional(),
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
export const DeleteDevicesRequest = z.object({ ids: z.array(Id).min(1).max(100) });
export const DeleteDevicesResponse = z.object({ ok: z.boolean(), deleted: z.number().int() });

/** POST generate_token { id } → result.access_token (device token, 60 days, §9). */
export const GenerateTokenRequest = z.object({ id: Id });
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

export const deviceRoutes = defineRoutes({
  'devices.list': {
    method: 'GET',
    path: '/api/get_devices/',
    auth: 'user',
    summary: 'The caller’s devices, one page, sorted and searched (§7, §9 defaults)',
    query: GetDevicesQuery,
    answer: GetDevicesResponse,
  },
  'devices.online': {
    method: 'GET',
    path: '/api/get-online-devices',
    auth: 'user',
    summary: 'device_ids of the caller’s devices registered with signalling now',
    answer: OnlineDevicesResponse,
  },
  /** ids are row ids or device_ids; 404 when none is the caller's. */
  'devices.delete': {
    method: 'DELETE',
    path: '/api/device',
    auth: 'user',
    summary: 'Delete devices (row ids or device_ids); their tokens and signalling sessions end',
    body: DeleteDevicesRequest,
    answer: DeleteDevicesResponse,
    errors: [404],
  },
  'devices.generateToken': {
    method: 'POST',
    path: '/api/generate_token',
    auth: 'user',
    summary: 'A new device token (60 days, §9); the old one is revoked',
    body: GenerateTokenRequest,
    answer: GenerateTokenResponse,
    errors: [404],
  },
  'devices.groups': {
    method: 'GET',
    path: '/api/groups',
    auth: 'user',
    summary: 'The caller’s camera or device groups as a tree (§3 Group)',
    query: GroupsQuery,
    answer: GroupsResponse,
  },
});
