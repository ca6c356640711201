/**
 * POST /api/request_remote_device (spec §7: device_id, target, data for Jupyter → data.url), for the device's
 * owner only:
 *   404 Not_found            the device is not the caller's, or the container has no web app on it
 *   409 Device_unreachable   the device's agent holds no tunnel (or does not answer within 5 s)
 *   200 { data: { url, expires_at } } and Set-Cookie: the REMOTE_COOKIE session for Path=remoteBasePath
 *       (HttpOnly, SameSite=Strict, Secure over HTTPS), REMOTE_SESSION_TTL_S; url = remoteBasePath, plus 'lab'
 *       for Jupyter. The proxy (./proxy.ts) opens the URL only with that cookie.
 */
import {
  containerRoutes,
  remoteBasePath,
  REMOTE_SESSION_TTL_S,
  shortContainerId,
} from '../../protocol/containers';
import { userOf } from '../auth/guard';
import type { ServerContext } from '../context';
import { findOwnDevice } from '../db/scope';
import { HttpError, notFound } from '../errors';
import type { HandlersOf, RouteHandler } from '../routes/register';
import { sessionCookie } from './session';

type RemoteRoutes = Pick<typeof containerRoutes, 'containers.requestRemoteDevice'>;
type RequestRemoteDevice = RemoteRoutes['containers.requestRemoteDevice'];

/** 409 of a device without a tunnel. */
export const deviceUnreachable = () => new HttpError(409, 'Device_unreachable', 'Device is not reachable');

/** The handler of POST /api/request_remote_device (see the module comment). */
export const remoteDeviceHandlers: HandlersOf<RemoteRoutes> = (ctx) => ({
  'containers.requestRemoteDevice': {
    // Each call asks the agent over its control socket.
    rateLimit: { max: 120, timeWindow: '1 minute' },
    handle: requestRemoteDevice(ctx),
  },
});

function requestRemoteDevice(ctx: ServerContext): RouteHandler<RequestRemoteDevice> {
  return async ({ body }, request, reply) => {
    const user = userOf(request);
    const device = await findOwnDevice(ctx.db, user.id, body.device_id);
    if (!device) throw notFound('Device');
    const { hub, sessions } = ctx.tunnels;
    if (!hub.isConnected(device.deviceId)) throw deviceUnreachable();
    const container = shortContainerId(body.data.container_id);
    const answer = await hub.check(device.deviceId, container);
    if (answer === 'unreachable') throw deviceUnreachable();
    if (answer === 'missing') throw notFound('Container web app');
    const exp = Math.floor(Date.now() / 1000) + REMOTE_SESSION_TTL_S;
    const base = remoteBasePath(device.deviceId, body.data.container_id);
    const value = sessions.sign({ userId: user.id, deviceId: device.deviceId, container, exp });
    void reply.header(
      'set-cookie',
      sessionCookie(value, base, REMOTE_SESSION_TTL_S, request.protocol === 'https'),
    );
    void reply.header('cache-control', 'no-store');
    return {
      data: {
        url: base + (body.target === 'jupyter' ? 'lab' : ''),
        expires_at: new Date(exp * 1000).toISOString(),
      },
    };
  };
}
