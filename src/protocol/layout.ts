/**
 * The caller's saved camera page (issue 3 "the layout survives a reload and a new sign-in on the same
 * account"; spec §2 Camera control page, §3 Camera layout cell, §9 camera grid). Not a spec §7 call.
 */
import { z } from 'zod';
import { defineRoutes } from './route';

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

export const layoutRoutes = defineRoutes({
  /** `streams` is [] and `updated_at` null when the user never saved one. */
  'layout.get': {
    method: 'GET',
    path: '/api/camera-layout',
    auth: 'user',
    summary: 'The caller’s saved camera page',
    answer: CameraLayoutResponse,
  },
  /**
   * Replaces the whole layout. 400 Validation_error when two streams share a `key`, two cells on one page
   * share an `i`, a page holds more than 12 streams (§9), a cell sticks out of the 12 columns, or a stream
   * names a device that is not the caller's.
   */
  'layout.put': {
    method: 'PUT',
    path: '/api/camera-layout',
    auth: 'user',
    summary: 'Save the caller’s camera page (replaces it whole)',
    body: CameraLayout,
    answer: CameraLayoutResponse,
  },
});
