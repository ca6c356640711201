/**
 * The tus endpoint under hostile requests (issue 9 "Uploads"; src/server/uploads/tusServer.ts). It is mounted
 * beside the REST route table, not in it, so the registry-driven harness (fuzz.test.ts) never reaches it; this
 * sample does: seeded random methods, paths, tus headers (Tus-Resumable, Upload-Length, Upload-Offset,
 * Upload-Metadata, Content-Type) and bodies, as the owner, as another user, with a bad token and with none.
 * Every answer must be below 500; every refusal other than 404 must carry the JSON error shape `{ code, message }`;
 * no upload may be created for an unknown purpose or a malformed metadata header; the server still answers
 * afterwards. FUZZ_SEED replays a run (the seed is printed).
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TUS_PATH } from '../../src/protocol/uploads';
import { login, startTestServer, type TestServer } from '../unit/server/helpers';
import { Rng, seedFromEnv } from './random';

const CASES = 400;
const b64 = (s: string) => Buffer.from(s).toString('base64');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let server: TestServer;
let owner: string;
let other: string;

beforeAll(async () => {
  server = await startTestServer();
  await server.seed.ensureUser({ email: 'tus-owner@edge.local', password: 'tus-owner-123' });
  await server.seed.ensureUser({ email: 'tus-other@edge.local', password: 'tus-other-123' });
  owner = (await login(server, 'tus-owner@edge.local', 'tus-owner-123')).token;
  other = (await login(server, 'tus-other@edge.local', 'tus-other-123')).token;
}, 120_000);

afterAll(async () => {
  await server?.dispose();
});

/** A metadata header: well formed, malformed, or hostile. */
function metadata(rng: Rng): string {
  const good = {
    purpose: rng.pick(['model', 'model', 'nope', '', 'x'.repeat(300)]),
    filename: rng.pick([
      'm.onnx',
      '../../etc/passwd',
      'a\u0001b.onnx',
      '.',
      'x'.repeat(400) + '.onnx',
      'ok.exe',
    ]),
    sha256: rng.pick([sha(Buffer.from('x')), 'zz', '']),
    name: rng.pick(['fuzz model', '', 'n'.repeat(500)]),
    format: rng.pick(['onnx', 'tensorrt', 'bogus', '']),
    task: rng.pick(['object-detection', 'llm', '??']),
    userId: rng.pick(['someone-else', '00000000-0000-0000-0000-000000000000']),
  };
  const pairs = Object.entries(good)
    .filter(() => rng.chance(0.8))
    .map(([k, v]) => `${k} ${b64(v)}`);
  switch (rng.int(0, 5)) {
    case 0:
      return pairs.join(',');
    case 1:
      return `${pairs.join(',')},broken !!!notbase64`;
    case 2:
      return 'key-only,another';
    case 3:
      return `${'k'.repeat(rng.int(1, 5000))} ${b64('v')}`;
    case 4:
      return rng.string(rng.int(0, 300), 'ab ,=+/\u00e9\t');
    default:
      return pairs.concat(pairs).join(',');
  }
}

function uploadPath(rng: Rng, known: string[]): string {
  const choice = rng.int(0, 6);
  if (choice === 0 && known.length > 0) return `${TUS_PATH}/${rng.pick(known)}`;
  return rng.pick([
    TUS_PATH,
    `${TUS_PATH}/`,
    `${TUS_PATH}/${rng.string(32, 'abcdef0123456789')}`,
    `${TUS_PATH}/..%2F..%2Fetc%2Fpasswd`,
    `${TUS_PATH}/${'a'.repeat(3000)}`,
    `${TUS_PATH}/%00`,
  ]);
}

interface Answer {
  status: number;
  text: string;
  location: string | null;
}

async function send(method: string, url: string, headers: Record<string, string>, body?: Buffer) {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers,
    body: body ? new Uint8Array(body) : undefined,
  });
  const text = method === 'HEAD' ? '' : await res.text();
  return { status: res.status, text, location: res.headers.get('location') } satisfies Answer;
}

const isErrorShape = (text: string) => {
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown };
    return typeof body.code === 'string' && typeof body.message === 'string';
  } catch {
    return false;
  }
};

describe('tus endpoint fuzz sample', () => {
  it('answers hostile tus requests with clear refusals, never a 5xx', async () => {
    const seed = seedFromEnv();
    const rng = new Rng(seed);
    const known: string[] = [];
    const failures: string[] = [];
    const outcomes: Record<string, number> = {};
    for (let i = 0; i < CASES; i++) {
      const c = rng.fork(i);
      const method = c.pick(['POST', 'POST', 'PATCH', 'PATCH', 'HEAD', 'DELETE', 'OPTIONS', 'GET', 'PUT']);
      let headers: Record<string, string> = {};
      const who = c.int(0, 9);
      if (who < 6) headers.authorization = `Token ${owner}`;
      else if (who < 8) headers.authorization = `Token ${other}`;
      else if (who === 8) headers.authorization = `Token ${c.string(40)}`;
      if (c.chance(0.85)) headers['tus-resumable'] = c.pick(['1.0.0', '1.0.0', '0.2.2', 'garbage']);
      if (c.chance(0.8))
        headers['upload-length'] = c.pick(['1', '10', '-5', '1.5', 'abc', '99999999999999999999', '0', '']);
      if (c.chance(0.4)) headers['upload-defer-length'] = c.pick(['1', '0', 'x']);
      if (c.chance(0.8)) headers['upload-metadata'] = metadata(c);
      if (method === 'PATCH' || c.chance(0.2)) {
        headers['upload-offset'] = c.pick(['0', '0', '5', '-1', 'x', '100000000000']);
        headers['content-type'] = c.pick([
          'application/offset+octet-stream',
          'application/offset+octet-stream',
          'application/json',
          'text/plain',
        ]);
      }
      const body =
        method === 'PATCH' || (method === 'POST' && c.chance(0.3))
          ? Buffer.from(c.string(c.int(0, 64)))
          : undefined;
      let url = uploadPath(c, known);
      // A quarter of the creations are well formed (a real 'model' upload of 1–64 bytes), so that hostile
      // PATCH, HEAD and DELETE requests meet real uploads too.
      if (method === 'POST' && c.chance(0.25)) {
        url = TUS_PATH;
        headers = {
          authorization: `Token ${owner}`,
          'tus-resumable': '1.0.0',
          'upload-length': String(c.int(1, 64)),
          'upload-metadata': [
            ['purpose', 'model'],
            ['filename', 'fuzz.onnx'],
            ['sha256', sha(Buffer.from(c.string(8)))],
            ['name', `fuzz model ${i}`],
            ['task', 'object-detection'],
            ['format', 'onnx'],
          ]
            .map(([k, v]) => `${k} ${b64(v!)}`)
            .join(','),
        };
      }
      let answer: Answer;
      try {
        answer = await send(method, url, headers, body);
      } catch (err) {
        failures.push(`#${i} ${method} ${url.slice(0, 80)}: no answer (${String(err)})`);
        continue;
      }
      outcomes[answer.status] = (outcomes[answer.status] ?? 0) + 1;
      if (answer.status >= 500) {
        failures.push(
          `#${i} ${method} ${url.slice(0, 80)} answered ${answer.status}: ${answer.text.slice(0, 200)}`,
        );
      } else if (
        answer.status >= 400 &&
        answer.status !== 404 &&
        method !== 'HEAD' &&
        answer.text !== '' &&
        !isErrorShape(answer.text)
      ) {
        failures.push(
          `#${i} ${method} answered ${answer.status} without { code, message }: ${answer.text.slice(0, 200)}`,
        );
      }
      if (method === 'POST' && answer.status === 201 && answer.location) {
        known.push(answer.location.split('/').pop()!);
      }
    }
    console.info(`tus fuzz (replay with FUZZ_SEED=${seed}): ${JSON.stringify(outcomes)}`);
    expect(failures, `FUZZ_SEED=${seed}`).toEqual([]);
    // Nothing was stored without a 201: every upload in the store is one the endpoint accepted.
    const stored = readdirSync(path.join(server.dataDir, 'uploads'))
      .filter((n) => n.endsWith('.json'))
      .map((n) => n.slice(0, -'.json'.length));
    expect(known.length).toBeGreaterThan(0);
    for (const id of stored) expect(known).toContain(id);
    // Still answering: a well-formed creation with no token is a 401 with the error shape.
    const after = await send('POST', TUS_PATH, { 'tus-resumable': '1.0.0', 'upload-length': '1' });
    expect(after.status).toBe(401);
    expect(isErrorShape(after.text)).toBe(true);
    // A foreign origin gets no CORS access to the endpoint (the console is served from the server's own).
    const preflight = await fetch(`${server.url}${TUS_PATH}`, {
      method: 'OPTIONS',
      headers: { origin: 'http://elsewhere.invalid', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  }, 300_000);
});
