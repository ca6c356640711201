/**
 * IP camera routes (src/protocol/ipCameras.ts; issue 16 §2; spec §3 IP camera, §7 remove-ip-camera): the
 * caller's IP cameras with the device that reaches each; add, edit, remove. The device must be the caller's
 * (404 otherwise); names are unique per user (409). Passwords are sealed (auth/secretBox.ts) and never answered;
 * the agent route (routes/agent.ts) hands them, opened, to the reaching device only.
 */
import { and, asc, eq } from 'drizzle-orm';
import { API_ERROR_CODES } from '../../protocol';
import {
  IP_CAMERA_TEXTS,
  type IpCameraInput,
  type ipCameraRoutes,
  type ManagedIpCamera,
} from '../../protocol/ipCameras';
import { userOf } from '../auth/guard';
import { secretBox } from '../auth/secretBox';
import type { Db } from '../db';
import { findOwnDevice, isUniqueViolation, isUuid } from '../db/scope';
import { devices, ipCameras } from '../db/schema';
import { HttpError } from '../errors';
import type { HandlersOf } from './register';

const cameraNotFound = () => new HttpError(404, API_ERROR_CODES.notFound, IP_CAMERA_TEXTS.notFound);
const labelTaken = () => new HttpError(409, 'Ip_camera_exists', IP_CAMERA_TEXTS.labelTaken);

/** The caller's IP cameras (one when `id` is given), with the caller's device that reaches each. */
async function managed(db: Db, ownerId: string, id?: string): Promise<ManagedIpCamera[]> {
  const rows = await db
    .select({ cam: ipCameras, deviceId: devices.deviceId, deviceLabel: devices.label })
    .from(ipCameras)
    .leftJoin(devices, and(eq(devices.id, ipCameras.deviceRowId), eq(devices.ownerId, ownerId)))
    .where(id ? and(eq(ipCameras.ownerId, ownerId), eq(ipCameras.id, id)) : eq(ipCameras.ownerId, ownerId))
    .orderBy(asc(ipCameras.label), asc(ipCameras.id));
  return rows.map(({ cam, deviceId, deviceLabel }) => ({
    id: cam.id,
    label: cam.label,
    url: cam.url,
    device_id: deviceId,
    device_label: deviceLabel,
    username: cam.username,
    has_password: cam.passwordSecret !== null,
    group_id: cam.groupId,
  }));
}

/** The row values of an add or edit; `password` undefined keeps what is stored. */
async function valuesOf(db: Db, ownerId: string, body: IpCameraInput) {
  const device = await findOwnDevice(db, ownerId, body.device_id);
  if (!device) throw new HttpError(404, API_ERROR_CODES.notFound, IP_CAMERA_TEXTS.deviceNotFound);
  const password =
    body.password === undefined
      ? undefined
      : body.password
        ? (await secretBox(db)).seal(body.password)
        : null;
  return {
    label: body.label,
    url: body.url,
    deviceRowId: device.id,
    username: body.username || null,
    ...(password === undefined ? {} : { passwordSecret: password }),
  };
}

export const ipCameraHandlers: HandlersOf<typeof ipCameraRoutes> = (ctx) => ({
  'ipCameras.manage': async (_input, request) => ({ cameras: await managed(ctx.db, userOf(request).id) }),

  'ipCameras.create': async ({ body }, request) => {
    const owner = userOf(request).id;
    const values = await valuesOf(ctx.db, owner, body);
    try {
      const [row] = await ctx.db
        .insert(ipCameras)
        .values({ ownerId: owner, passwordSecret: null, ...values })
        .returning({ id: ipCameras.id });
      return { camera: (await managed(ctx.db, owner, row!.id))[0]! };
    } catch (err) {
      if (isUniqueViolation(err)) throw labelTaken();
      throw err;
    }
  },

  'ipCameras.update': async ({ params, body }, request) => {
    const owner = userOf(request).id;
    if (!isUuid(params.id)) throw cameraNotFound();
    const values = await valuesOf(ctx.db, owner, body);
    try {
      const updated = await ctx.db
        .update(ipCameras)
        .set(values)
        .where(and(eq(ipCameras.id, params.id), eq(ipCameras.ownerId, owner)))
        .returning({ id: ipCameras.id });
      if (updated.length === 0) throw cameraNotFound();
    } catch (err) {
      if (isUniqueViolation(err)) throw labelTaken();
      throw err;
    }
    return { camera: (await managed(ctx.db, owner, params.id))[0]! };
  },

  'ipCameras.remove': async ({ params }, request) => {
    const owner = userOf(request).id;
    if (!isUuid(params.id)) throw cameraNotFound();
    const removed = await ctx.db
      .delete(ipCameras)
      .where(and(eq(ipCameras.id, params.id), eq(ipCameras.ownerId, owner)))
      .returning({ id: ipCameras.id });
    if (removed.length === 0) throw cameraNotFound();
    return { ok: true as const };
  },
});
