/**
 * REST fuzzing: every route of the route table (src/protocol/routes.ts) gets requests built from its own
 * schemas — a valid baseline, then hostile mutations of its body, query, path parameters and headers,
 * invalid JSON, wrong content types, wrong or missing tokens. Sent over plain node:http (paths go out as
 * written: no URL normalisation) with a 5 s limit each. Every answer must be < 500; every 4xx a
 * `{ code, message }`; every 200 must match the route's answer schema.
 */
import http from 'node:http';
import type { RestRoute } from '../../src/protocol/route';
import { restRoutes } from '../../src/protocol/routes';
import type { FuzzEnv } from './env';
import {
  baseline,
  hugeString,
  jsonSchemaOf,
  mutate,
  mutateText,
  ONE_MB,
  textBaseline,
  type Fixtures,
  type JsonSchema,
  type TextRecord,
} from './generate';
import { Rng } from './random';
import { clip, isErrorShape, pool, type Recorder } from './report';

/** How long any request may take. */
export const REST_TIMEOUT_MS = 5_000;

/** One request, as sent. */
export interface RestCase {
  index: number;
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** What was mutated; '+'-joined. */
  label: string;
}

export interface RestAnswer {
  status: number;
  body: unknown;
  text: string;
  ms: number;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

/** Bodies that are not JSON, or JSON that hurts. */
const INVALID_JSON: readonly string[] = [
  '',
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '{a:1}',
  'NaN',
  'undefined',
  '[1,2',
  '"\\ud800"',
  '{"a":"\\u0000"}',
  '\u0000',
  '\ufeff{}',
  '{"__proto__":{"isAdmin":true,"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"a":1,"a":2}',
  '1'.repeat(5000),
  '['.repeat(100_000) + ']'.repeat(100_000),
  '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000),
  'null',
  'true',
  '0',
  '[]',
];

const CONTENT_TYPES: readonly (string | null)[] = [
  null,
  'text/plain',
  'text/plain; charset=utf-8',
  'multipart/form-data; boundary=----fuzz',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/xml',
  'APPLICATION/JSON',
  'application/json, text/plain',
  'application/vnd.api+json',
  ';;;',
  'application/octet-stream',
];

/** Values for named fields, so cases reach past validation into the handlers. */
export function restFixtures(env: FuzzEnv): Fixtures {
  return {
    device_id: [env.restDevice.device_id, env.restDevice.id, env.agentDevice.device_id],
    deviceId: [env.restDevice.device_id, env.restDevice.id],
    email: [env.owner.email],
    camera_id: ['cam-1', 'cam-2'],
  };
}

/**
 * Percent-encodes like encodeURIComponent, but never throws: a lone surrogate goes out as its WTF-8 bytes
 * (%ED%A0%80), which is what a hostile client can send.
 */
export function percentEncode(s: string, keep: RegExp = /[A-Za-z0-9\-_.!~*'()]/): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i]!;
    if (c < 0x80 && keep.test(ch)) {
      out += ch;
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      out += encodeURIComponent(s.slice(i, i + 2));
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(ch);
    }
  }
  return out;
}

/** Encodes a text for a URL path or query: escaped (as a client would), or raw (what http lets through). */
function urlText(s: string, raw: boolean): string {
  // node:http refuses characters outside printable ASCII in a path: raw keeps everything else ('/', '%', '..').
  return raw ? percentEncode(s, /[\x21-\x7e]/) : percentEncode(s);
}

function queryString(q: TextRecord, raw: boolean): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(q)) {
    for (const one of Array.isArray(v) ? v : [v]) parts.push(`${urlText(k, raw)}=${urlText(one, raw)}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** Header values node:http accepts (latin-1, no control characters). */
const headerSafe = (s: string) => (/^[\x20-\x7e\x80-\xff]*$/.test(s) ? s : percentEncode(s));

interface AuthTokens {
  owner: string;
  admin: string;
  other: string;
  device: string;
  refresh: string;
}

/** The right Authorization for a route, or (sometimes) a wrong one. */
function authHeader(route: RestRoute, tokens: AuthTokens, rng: Rng): { value: string | null; label: string } {
  const right: Record<RestRoute['auth'], string[]> = {
    none: [],
    user: [tokens.owner, tokens.admin],
    admin: [tokens.admin],
    device: [tokens.device],
    userOrDevice: [tokens.owner, tokens.device],
  };
  const good = right[route.auth];
  if (rng.chance(0.75)) {
    if (!good.length) return { value: null, label: 'auth:none' };
    return { value: `Token ${rng.pick(good)}`, label: 'auth:right' };
  }
  const wrong: [string, string | null][] = [
    ['none', null],
    ['other-user', `Token ${tokens.other}`],
    ['owner', `Token ${tokens.owner}`],
    ['device', `Token ${tokens.device}`],
    ['refresh-as-access', `Token ${tokens.refresh}`],
    ['garbage', `Token ${hugeString(rng.int(1, 64), 'x')}`],
    ['bearer', `Bearer ${tokens.owner}`],
    ['empty', 'Token '],
    ['bare', tokens.owner],
    ['jwt-none', 'Token eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiIxIiwicm9sZXMiOlsiYWRtaW4iXX0.'],
    ['tampered', `Token ${tokens.owner.slice(0, -3)}abc`],
    ['long', `Token ${hugeString(8_000, 'a')}`],
    ['unicode', `Token ${encodeURIComponent('🙂\u202e')}`],
  ];
  const [label, value] = rng.pick(wrong);
  return { value, label: `auth:${label}` };
}

/** Builds case `index` for route `name` (reproducible from the seed and the index). */
export function buildRestCase(
  index: number,
  name: string,
  route: RestRoute,
  rng: Rng,
  fixtures: Fixtures,
  tokens: AuthTokens,
  bodyJson?: JsonSchema,
): RestCase {
  const labels: string[] = [];
  const headers: Record<string, string> = {};
  let method: string = route.method;
  if (rng.chance(0.04)) {
    method = rng.pick(METHODS.filter((m) => m !== route.method));
    labels.push(`method:${method}`);
  }

  // Path parameters.
  let path: string = route.path;
  if (route.params) {
    let params = textBaseline(route.params, rng, fixtures).value;
    if (rng.chance(0.4)) {
      const m = mutateText(route.params, params, rng, true);
      params = m.value;
      labels.push(m.label);
    }
    const raw = rng.chance(0.3);
    if (raw) labels.push('raw-path');
    path = path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, key: string) => {
      const v = params[key];
      return urlText(Array.isArray(v) ? v.join('/') : (v ?? ''), raw);
    });
  } else if (rng.chance(0.03)) {
    const extra = rng.pick([
      '/..',
      '/../../etc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '%00',
      '/%',
      '//',
      '/x'.repeat(2000),
    ]);
    path += extra;
    labels.push(`path-suffix:${clip(extra, 30)}`);
  }

  // Query.
  let query: TextRecord = {};
  if (route.query) {
    query = textBaseline(route.query, rng, fixtures).value;
    if (rng.chance(0.5)) {
      const m = mutateText(route.query, query, rng);
      query = m.value;
      labels.push(m.label);
    }
  } else if (rng.chance(0.05)) {
    query = { [rng.pick(['a', '__proto__', 'page'])]: [rng.pick(['1', 'NaN', '../..']), '2'] };
    labels.push('query-unexpected');
  }
  const rawQuery = rng.chance(0.2);
  if (rawQuery && Object.keys(query).length) labels.push('raw-query');
  path += queryString(query, rawQuery);

  // Headers the route reads.
  if (route.headers) {
    let h = textBaseline(route.headers, rng, {}).value;
    if (rng.chance(0.5)) {
      const m = mutateText(route.headers, h, rng);
      h = m.value;
      labels.push(`header:${m.label}`);
    }
    for (const [k, v] of Object.entries(h)) {
      if (/^[a-z0-9-]+$/i.test(k))
        headers[k] = headerSafe(Array.isArray(v) ? v.join(',') : v).slice(0, 8_000);
    }
  }

  // Authorization.
  const auth = authHeader(route, tokens, rng);
  labels.push(auth.label);
  if (auth.value !== null) headers.authorization = auth.value;

  // Body.
  let body: string | Buffer | undefined;
  let contentType: string | null = 'application/json';
  if (route.body) {
    const json = bodyJson ?? jsonSchemaOf(route.body);
    let value = baseline(route.body, rng, fixtures, json).value;
    const r = rng.next();
    if (r < 0.65) {
      const m = mutate(route.body, value, rng, undefined, json);
      if (m) {
        value = m.value;
        labels.push(m.label);
      }
      body = JSON.stringify(value) ?? '';
    } else if (r < 0.8) {
      body = rng.pick(INVALID_JSON);
      labels.push(`invalid-json:${clip(JSON.stringify(body), 30)}`);
    } else if (r < 0.84) {
      body = `{"pad":"${hugeString(rng.pick([ONE_MB, 2 * ONE_MB]), 'x')}"}`;
      labels.push(`huge-body:${body.length}`);
    } else if (r < 0.86) {
      const depth = rng.pick([20, 5_000, 200_000]);
      body = `${'['.repeat(depth)}"deep"${']'.repeat(depth)}`;
      labels.push('deep-body');
    } else {
      body = JSON.stringify(value);
      labels.push('baseline');
    }
    if (rng.chance(0.12)) {
      contentType = rng.pick(CONTENT_TYPES);
      labels.push(`content-type:${contentType}`);
    }
  } else if (rng.chance(0.08)) {
    body = rng.pick(['{"a":1}', 'garbage', '{"__proto__":{"x":1}}', hugeString(ONE_MB, 'y')]);
    contentType = rng.pick(CONTENT_TYPES);
    labels.push(`unexpected-body:${body.length}:${contentType}`);
  }
  if (body !== undefined && contentType !== null) headers['content-type'] = contentType;
  return { index, route: name, method, path, headers, body, label: labels.join(' + ') || 'baseline' };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** Sends one case; rejects on a time-out (REST_TIMEOUT_MS) or a broken connection. */
export function send(
  baseUrl: string,
  c: Pick<RestCase, 'method' | 'path' | 'headers' | 'body'>,
  keepAlive = true,
): Promise<RestAnswer> {
  const url = new URL(baseUrl);
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: c.method,
        path: c.path,
        headers:
          c.body !== undefined ? { ...c.headers, 'content-length': Buffer.byteLength(c.body) } : c.headers,
        agent: keepAlive ? agent : false,
        signal: AbortSignal.timeout(REST_TIMEOUT_MS),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, body, text, ms: performance.now() - t0 });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (c.body !== undefined) req.end(c.body);
    else req.end();
  });
}

/** The case as text for a failure report. */
export function describeCase(c: RestCase): string {
  const body = c.body === undefined ? '' : `\n${clip(String(c.body), 400)}`;
  const headers = Object.entries(c.headers)
    .map(([k, v]) => `${k}: ${clip(v, 80)}`)
    .join('\n');
  return `${c.method} ${clip(c.path, 300)}\n${headers}${body}`;
}

/**
 * The route a request lands on, as the server's router picks it: a trailing slash is ignored (app.ts
 * `ignoreTrailingSlash`), a parameter matches one non-empty segment, and a static segment beats a parameter.
 * An empty path parameter can so land a case on a neighbour (`GET /api/environments/` with an empty alias is
 * the environment list); its answer is checked against that route's schema. Null when no route of the
 * method matches (e.g. a parameter holding a slash): the case's own route is kept.
 */
export function landedRoute(method: string, path: string): RestRoute | null {
  let bare = path.split('?')[0]!;
  if (bare.length > 1 && bare.endsWith('/')) bare = bare.slice(0, -1);
  const segments = bare.split('/');
  let best: { route: RestRoute; params: number } | null = null;
  for (const route of Object.values(restRoutes) as RestRoute[]) {
    if (route.method !== method) continue;
    const pattern = route.path.split('/');
    if (pattern.length !== segments.length) continue;
    let params = 0;
    const fits = pattern.every((part, i) => {
      if (part.startsWith(':')) {
        params += 1;
        return segments[i] !== '';
      }
      return part === segments[i];
    });
    if (fits && (!best || params < best.params)) best = { route, params };
  }
  return best?.route ?? null;
}

/** Runs `n` REST cases (cycling through the routes) and records them. */
export async function fuzzRest(
  env: FuzzEnv,
  n: number,
  seed: number,
  recorder: Recorder,
  concurrency = 8,
): Promise<void> {
  const names = Object.keys(restRoutes) as (keyof typeof restRoutes)[];
  const fixtures = restFixtures(env);
  const tokens: AuthTokens = {
    owner: env.owner.token,
    admin: env.admin.token,
    other: env.other.token,
    device: env.restDevice.token,
    refresh: env.owner.refreshToken,
  };
  const bodyJson = new Map<string, JsonSchema>();
  for (const name of names) {
    const r = restRoutes[name] as RestRoute;
    if (r.body) bodyJson.set(name, jsonSchemaOf(r.body));
  }
  const master = new Rng(seed);
  const t0 = performance.now();
  await pool(n, concurrency, async (i) => {
    const name = names[i % names.length]!;
    const route = restRoutes[name] as RestRoute;
    const c = buildRestCase(i, name, route, master.fork(i), fixtures, tokens, bodyJson.get(name));
    const fail = (problem: string) =>
      recorder.fail({
        area: 'rest',
        target: name,
        index: i,
        label: c.label,
        problem,
        input: describeCase(c),
      });
    let answer: RestAnswer;
    try {
      answer = await send(env.server.url, c).catch((err: Error & { code?: string }) => {
        // A kept-alive socket the server closed after its previous answer (e.g. a 431): try a fresh one.
        if (err.code === 'ECONNRESET' || err.code === 'EPIPE') return send(env.server.url, c, false);
        throw err;
      });
    } catch (err) {
      const e = err as Error & { code?: string };
      const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError';
      recorder.count('rest', name, timedOut ? 'timeout' : `error:${e.code ?? e.name}`, REST_TIMEOUT_MS);
      fail(
        timedOut
          ? `no answer within ${REST_TIMEOUT_MS} ms`
          : `connection failed: ${e.code ?? ''} ${e.message}`,
      );
      return;
    }
    recorder.count('rest', name, String(answer.status), answer.ms, c.label);
    if (answer.status >= 500) fail(`answered ${answer.status}: ${clip(answer.text, 300)}`);
    else if (answer.status >= 400 && !isErrorShape(answer.body)) {
      fail(`answered ${answer.status} without { code, message }: ${clip(answer.text, 300)}`);
    } else if (answer.status === 200 && c.method === route.method) {
      const ok = (landedRoute(c.method, c.path) ?? route).answer.safeParse(answer.body);
      if (!ok.success)
        fail(`200 answer does not match the route's answer schema: ${clip(ok.error.message, 300)}`);
    }
  });
  recorder.areas.rest.durationMs = Math.round(performance.now() - t0);
}

/** The server still answers: demo-account and user-info both 200. */
export async function restAlive(env: FuzzEnv): Promise<string | null> {
  try {
    const demo = await send(env.server.url, { method: 'GET', path: '/api/demo-account', headers: {} });
    if (demo.status !== 200) return `GET /api/demo-account answered ${demo.status}`;
    const me = await send(env.server.url, {
      method: 'GET',
      path: '/api/user-info',
      headers: { authorization: `Token ${env.owner.token}` },
    });
    if (me.status !== 200) return `GET /api/user-info answered ${me.status}: ${clip(me.text, 200)}`;
    return null;
  } catch (err) {
    return `the server did not answer: ${(err as Error).message}`;
  }
}
