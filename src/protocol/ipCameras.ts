/**
 * The ipCameras feature's contract (issue 16 §2 IP cameras; spec §3 IP camera; §7 ip-cameras, remove-ip-camera):
 * add, edit and remove a network camera that one of the caller's devices reaches, and a still fetched through
 * that device. The spec gives no paths or shapes beyond GET ip-cameras ("exact paths not shown"): these are ours.
 *
 *   GET    ip-cameras/manage      → { cameras: ManagedIpCamera[] } the caller's, by label, with their devices
 *   POST   ip-cameras             IpCameraInput → { camera }; 409 when the label is taken
 *   PUT    ip-cameras/:id         IpCameraInput → { camera }; password absent = keep, null = remove
 *   DELETE ip-cameras/:id         → { ok } (§7 remove-ip-camera)
 *   device command ip-camera-still { url, username?, password? } → a PNG still through that device
 *
 * Credentials stay on the server: the password is stored sealed (AES-256-GCM, src/server/auth/secretBox.ts),
 * never returned to a browser (`has_password` says whether one is kept), and handed only to the device that
 * reaches the camera (GET device/ip-cameras). URLs carry no credentials (use the fields).
 */
import { z } from 'zod';
import { defineCommands } from './command';
import { defineRoutes, Id } from './route';

/** Longest IP camera name, characters. */
export const IP_CAMERA_LABEL_MAX = 100;
/** Longest URL, characters. */
export const IP_CAMERA_URL_MAX = 2000;

/** English refusal texts (the console shows its own translations by code or field). */
export const IP_CAMERA_TEXTS = {
  url: 'Enter an rtsp://, rtsps://, http(s):// or sim://<name> address.',
  urlCredentials: 'Put the user name and password in their fields, not in the address.',
  labelTaken: 'An IP camera with this name already exists.',
  notFound: 'IP camera not found.',
  deviceNotFound: 'Device not found.',
} as const;

/** rtsp(s):// or http(s):// (no spaces), or sim://<name> — the forms an agent reads (src/agent/backends/ipCameras.ts). */
const URL_RE = /^(?:(?:rtsps?|https?):\/\/[^\s/@]+(?:[/?#]\S*)?|sim:\/\/[A-Za-z0-9._-]{1,64}\/?)$/i;

/** An IP camera address: trimmed, one of the forms above, without user:password@. */
export const IpCameraUrl = z
  .string()
  .trim()
  .max(IP_CAMERA_URL_MAX)
  .refine((u) => !/^[a-z]+:\/\/[^/\s]*@/i.test(u), IP_CAMERA_TEXTS.urlCredentials)
  .refine((u) => URL_RE.test(u), IP_CAMERA_TEXTS.url)
  .meta({ examples: ['sim://yard', 'rtsp://10.0.0.5:554/stream1', 'http://10.0.0.6/snapshot.jpg'] });

/** Add or edit: the camera's name, address, the device (device_id) that reaches it, its credentials. */
export const IpCameraInput = z.object({
  label: z.string().trim().min(1, 'Enter a name').max(IP_CAMERA_LABEL_MAX),
  url: IpCameraUrl,
  /** device_id of one of the caller's devices. */
  device_id: Id,
  /** null or '' = none. */
  username: z.string().max(200).nullable().optional(),
  /** Absent = keep the stored one (edit) / none (add); null or '' = none. */
  password: z.string().max(200).nullable().optional(),
});
export type IpCameraInput = z.input<typeof IpCameraInput>;

/** An IP camera as its owner manages it (never the password). */
export const ManagedIpCamera = z.object({
  id: z.string(),
  label: z.string(),
  url: z.string(),
  /** The device that reaches it (device_id and label), or null when that device was deleted. */
  device_id: z.string().nullable(),
  device_label: z.string().nullable(),
  username: z.string().nullable(),
  has_password: z.boolean(),
  group_id: z.string().nullable(),
});
export type ManagedIpCamera = z.infer<typeof ManagedIpCamera>;

export const IpCameraParams = z.object({ id: Id });
export const IpCameraAnswer = z.object({ camera: ManagedIpCamera });

export const ipCameraRoutes = defineRoutes({
  'ipCameras.manage': {
    method: 'GET',
    path: '/api/ip-cameras/manage',
    auth: 'user',
    summary: 'The caller’s IP cameras with the device that reaches each (no passwords)',
    answer: z.object({ cameras: z.array(ManagedIpCamera) }),
  },
  'ipCameras.create': {
    method: 'POST',
    path: '/api/ip-cameras',
    auth: 'user',
    summary: 'Add an IP camera reached through one of the caller’s devices',
    body: IpCameraInput,
    answer: IpCameraAnswer,
    errors: [404, 409],
  },
  'ipCameras.update': {
    method: 'PUT',
    path: '/api/ip-cameras/:id',
    auth: 'user',
    summary: 'Edit an IP camera (a missing password keeps the stored one)',
    params: IpCameraParams,
    body: IpCameraInput,
    answer: IpCameraAnswer,
    errors: [404, 409],
  },
  'ipCameras.remove': {
    method: 'DELETE',
    path: '/api/ip-cameras/:id',
    auth: 'user',
    summary: 'Remove an IP camera (§7 remove-ip-camera)',
    params: IpCameraParams,
    answer: z.object({ ok: z.literal(true) }),
    errors: [404],
  },
});

export const ipCameraCommands = defineCommands({
  /**
   * A still of a network camera fetched by this device (before saving it; src/agent/ipCameras/still.ts):
   * http(s) = GET of the snapshot URL with HTTP basic auth, decoded and scaled by ffmpeg; rtsp(s) = one frame
   * read by ffmpeg; sim://<name> = a frame of the simulated camera. Reply: a 320×240 (or smaller) PNG data URL
   * under the link's message limit, width/height in pixels. Credentials are the ones typed in the form; the
   * device keeps nothing. Error codes: ip_camera_unreachable, ip_camera_auth_failed (401/403),
   * ip_camera_timeout (10 s), ip_camera_not_an_image, ip_camera_needs_ffmpeg ("RTSP stills need ffmpeg on the
   * device"), ip_camera_bad_url, busy (2 stills at once per device).
   */
  'ip-camera-still': {
    request: z.object({
      url: IpCameraUrl,
      username: z.string().max(200).nullable().optional(),
      password: z.string().max(200).nullable().optional(),
    }),
    reply: z.object({ image: z.string(), width: z.number().int(), height: z.number().int() }),
  },
});
