/**
 * One still of a network camera, fetched by this device (issue 16 §2 IP cameras: "a test that fetches a still
 * through the device that will reach it"). The same on both backends (a sim device on a demo machine still
 * fetches http(s) addresses for real):
 *   http(s)://  GET with HTTP basic auth (the snapshot URL of the camera), 10 s; the answer must be an image
 *               (JPEG/PNG/GIF/BMP/WebP magic bytes); ffmpeg decodes and scales it to 320×240 I420.
 *   rtsp(s)://  ffmpeg reads one frame over RTSP/TCP with the credentials in the URL (never logged).
 *   sim://name  a frame of the simulated IP camera of that name (src/agent/backends/sim/ipCamera.ts).
 * Failures are StillError with a code of IP_STILL_ERRORS.
 */
import { spawn } from 'node:child_process';
import { SNAPSHOT_RESOLUTION } from '../backends/resolutions';
import { SimIpCamera, simCameraName } from '../backends/sim/ipCamera';
import type { I420Frame } from '../backends/types';

/** Error codes of a still (the console translates them). */
export const IP_STILL_ERRORS = {
  unreachable: 'ip_camera_unreachable',
  auth: 'ip_camera_auth_failed',
  timeout: 'ip_camera_timeout',
  notImage: 'ip_camera_not_an_image',
  noFfmpeg: 'ip_camera_needs_ffmpeg',
  badUrl: 'ip_camera_bad_url',
} as const;
export type IpStillErrorCode = (typeof IP_STILL_ERRORS)[keyof typeof IP_STILL_ERRORS];

/** English texts of the codes. */
export const IP_STILL_TEXTS: Record<IpStillErrorCode, string> = {
  ip_camera_unreachable: 'The camera cannot be reached from this device.',
  ip_camera_auth_failed: 'The camera refused the user name or password.',
  ip_camera_timeout: 'The camera did not answer in time.',
  ip_camera_not_an_image: 'The address did not answer with an image.',
  ip_camera_needs_ffmpeg: 'RTSP stills need ffmpeg on the device.',
  ip_camera_bad_url: 'Enter an rtsp://, rtsps://, http(s):// or sim://<name> address.',
};

export class StillError extends Error {
  constructor(
    readonly code: IpStillErrorCode,
    detail?: string,
  ) {
    super(detail ? `${IP_STILL_TEXTS[code]} (${detail})` : IP_STILL_TEXTS[code]);
    this.name = 'StillError';
  }
}

/** What to fetch: the address and optional credentials. */
export interface StillRequest {
  url: string;
  username?: string | null;
  password?: string | null;
}

/** Options: the ffmpeg binary (null = none on this device), the time limit (ms), an abort signal. */
export interface StillOptions {
  ffmpeg: string | null;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Largest image body read from an http camera, bytes. */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
const { width: W, height: H } = SNAPSHOT_RESOLUTION;

/** The kind of image in `b` by its magic bytes, or null. */
export function imageKind(b: Uint8Array): 'jpeg' | 'png' | 'gif' | 'bmp' | 'webp' | null {
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'png';
  if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46) return 'gif';
  if (b[0] === 0x42 && b[1] === 0x4d) return 'bmp';
  if (b[0] === 0x52 && b[1] === 0x49 && b[8] === 0x57 && b[9] === 0x45) return 'webp';
  return null;
}

/** Runs ffmpeg to one 320×240 I420 frame: input `args`, optional stdin bytes. */
function ffmpegFrame(
  ffmpeg: string,
  args: string[],
  stdin: Buffer | null,
  o: StillOptions,
): Promise<I420Frame> {
  const size = (W * H * 3) / 2;
  return new Promise((resolve, reject) => {
    const child = spawn(
      ffmpeg,
      [
        '-hide_banner',
        '-loglevel',
        'error',
        ...args,
        '-frames:v',
        '1',
        '-vf',
        `scale=${W}:${H}`,
        '-pix_fmt',
        'yuv420p',
        '-f',
        'rawvideo',
        'pipe:1',
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const out: Buffer[] = [];
    let err = '';
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(() => reject(new StillError(IP_STILL_ERRORS.timeout)));
    }, o.timeoutMs ?? 10_000);
    const onAbort = () => {
      child.kill('SIGKILL');
      finish(() => reject(new StillError(IP_STILL_ERRORS.timeout, 'canceled')));
    };
    o.signal?.addEventListener('abort', onAbort);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => {
      if (err.length < 4000) err += d.toString();
    });
    child.on('error', (e) => finish(() => reject(new StillError(IP_STILL_ERRORS.noFfmpeg, e.message))));
    child.on('close', () => {
      const data = Buffer.concat(out);
      if (data.length >= size) {
        finish(() => resolve({ width: W, height: H, data: new Uint8Array(data.subarray(0, size)) }));
        return;
      }
      finish(() => reject(classifyFfmpeg(err)));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin ?? undefined);
  });
}

/** A StillError for ffmpeg's stderr (credentials are never in it: ffmpeg prints no URL at this log level). */
export function classifyFfmpeg(stderr: string): StillError {
  const line = stderr
    .replace(/[a-z]+:\/\/[^\s@]*@/gi, '')
    .trim()
    .split('\n')
    .pop()
    ?.slice(0, 200);
  if (/401|403|unauthori[sz]ed|forbidden/i.test(stderr)) return new StillError(IP_STILL_ERRORS.auth);
  if (/timed out|timeout/i.test(stderr)) return new StillError(IP_STILL_ERRORS.timeout);
  if (/invalid data|could not find codec|decod/i.test(stderr))
    return new StillError(IP_STILL_ERRORS.notImage, line);
  return new StillError(IP_STILL_ERRORS.unreachable, line);
}

/** GETs an http(s) snapshot with basic auth; the image bytes, or a StillError. */
async function fetchImage(req: StillRequest, o: StillOptions): Promise<Buffer> {
  const headers: Record<string, string> = {};
  if (req.username || req.password) {
    headers.authorization = `Basic ${Buffer.from(`${req.username ?? ''}:${req.password ?? ''}`).toString('base64')}`;
  }
  const signals = [AbortSignal.timeout(o.timeoutMs ?? 10_000), ...(o.signal ? [o.signal] : [])];
  let res: Response;
  try {
    res = await fetch(req.url, { headers, signal: AbortSignal.any(signals), redirect: 'follow' });
  } catch (e) {
    const name = (e as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') throw new StillError(IP_STILL_ERRORS.timeout);
    const cause = (e as { cause?: { code?: string } }).cause?.code;
    throw new StillError(IP_STILL_ERRORS.unreachable, cause);
  }
  if (res.status === 401 || res.status === 403) {
    await res.body?.cancel();
    throw new StillError(IP_STILL_ERRORS.auth, `HTTP ${res.status}`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new StillError(IP_STILL_ERRORS.unreachable, `HTTP ${res.status}`);
  }
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > MAX_IMAGE_BYTES) {
    await res.body?.cancel();
    throw new StillError(IP_STILL_ERRORS.notImage, 'too large');
  }
  let body: Buffer;
  try {
    body = Buffer.from(await res.arrayBuffer());
  } catch {
    throw new StillError(IP_STILL_ERRORS.timeout);
  }
  if (body.length > MAX_IMAGE_BYTES || !imageKind(body)) throw new StillError(IP_STILL_ERRORS.notImage);
  return body;
}

/** The URL with user:password@ put in (for ffmpeg's RTSP reader). */
export function withCredentials(url: string, username?: string | null, password?: string | null): string {
  if (!username && !password) return url;
  const u = new URL(url);
  u.username = username ?? '';
  u.password = password ?? '';
  return u.toString();
}

/**
 * One 320×240 I420 frame of the camera at `req.url` (see the module comment).
 * @throws StillError (IP_STILL_ERRORS codes).
 */
export async function grabStill(req: StillRequest, o: StillOptions): Promise<I420Frame> {
  const url = req.url.trim();
  if (/^sim:\/\//i.test(url)) {
    const name = simCameraName(url);
    if (!name) throw new StillError(IP_STILL_ERRORS.badUrl);
    return new SimIpCamera('still', name, name).grabFrame(SNAPSHOT_RESOLUTION);
  }
  if (/^https?:\/\//i.test(url)) {
    const image = await fetchImage({ ...req, url }, o);
    if (!o.ffmpeg) throw new StillError(IP_STILL_ERRORS.noFfmpeg, 'to decode the image');
    return ffmpegFrame(o.ffmpeg, ['-f', 'image2pipe', '-i', 'pipe:0'], image, o);
  }
  if (/^rtsps?:\/\//i.test(url)) {
    if (!o.ffmpeg) throw new StillError(IP_STILL_ERRORS.noFfmpeg);
    const source = withCredentials(url, req.username, req.password);
    return ffmpegFrame(o.ffmpeg, ['-rtsp_transport', 'tcp', '-i', source], null, o);
  }
  throw new StillError(IP_STILL_ERRORS.badUrl);
}
