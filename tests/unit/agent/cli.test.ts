/**
 * The agent CLI as the lead's stack runs it (`node --import tsx src/agent/main.ts …`, token in AGENT_TOKEN),
 * against a stand-in server: PeerJS signalling plus the four agent-facing REST routes.
 */
import { spawn } from 'node:child_process';
import type http from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PeerServer } from 'peer';
import { makeKeys } from './helpers';

const PORT = 18225 + Math.floor(Math.random() * 25);
const SERVER = `http://127.0.0.1:${PORT}`;
const DEVICE = 'dev-c11c11c11c11c11c';
const GOOD_TOKEN = 'good-device-token';
const ROOT = path.resolve(import.meta.dirname, '../../..');

interface Run {
  code: number | null;
  stdout: string[];
  stderr: string;
}

/** Runs the agent CLI; `untilReady` sends SIGTERM once the ready line appears. */
function runAgent(token: string, untilReady: boolean): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/agent/main.ts',
        '--server',
        SERVER,
        '--kind',
        'x86',
        '--cameras',
        '3',
        '--label',
        'cli-test',
      ],
      { cwd: ROOT, env: { ...process.env, AGENT_TOKEN: token }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const run: Run = { code: null, stdout: [], stderr: '' };
    createInterface({ input: child.stdout! }).on('line', (line) => {
      run.stdout.push(line);
      if (untilReady && line.includes('"event":"ready"')) child.kill('SIGTERM');
    });
    child.stderr!.on('data', (d: Buffer) => (run.stderr += d.toString()));
    child.on('exit', (code) => {
      run.code = code;
      resolve(run);
    });
  });
}

describe('agent CLI', () => {
  let server: http.Server;
  const registered: unknown[] = [];

  beforeAll(async () => {
    const keys = await makeKeys();
    server = await new Promise<http.Server>((resolve) => {
      const app = PeerServer({ port: PORT, host: '127.0.0.1', path: '/peerjs', key: 'peerjs' }, (s) =>
        resolve(s as http.Server),
      );
      const authorised = (req: http.IncomingMessage, res: http.ServerResponse) => {
        if (req.headers.authorization === `Token ${GOOD_TOKEN}`) return true;
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 'invalid_token', message: 'Unknown device token' }));
        return false;
      };
      const json = (res: http.ServerResponse, body: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      app.get('/api/device/me', (req: http.IncomingMessage, res: http.ServerResponse) => {
        if (authorised(req, res))
          json(res, { device_id: DEVICE, label: 'CLI box', chipset_id: '0', jetpack: null });
      });
      app.get('/api/.well-known/jwks.json', (_req: http.IncomingMessage, res: http.ServerResponse) =>
        json(res, keys.jwks),
      );
      app.get('/api/ice-servers', (req: http.IncomingMessage, res: http.ServerResponse) => {
        if (authorised(req, res)) json(res, { servers: [] });
      });
      app.post('/api/device/register-cameras', (req: http.IncomingMessage, res: http.ServerResponse) => {
        let body = '';
        req.on('data', (d: Buffer) => (body += d.toString()));
        req.on('end', () => {
          if (!authorised(req, res)) return;
          registered.push(JSON.parse(body));
          json(res, { ok: true });
        });
      });
    });
  });

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  it('prints one ready line with its device id, registers its cameras, and exits 0 on SIGTERM', async () => {
    const run = await runAgent(GOOD_TOKEN, true);
    expect(run.stdout).toEqual([JSON.stringify({ event: 'ready', device_id: DEVICE })]);
    expect(run.code).toBe(0);
    expect(registered).toEqual([
      {
        cameras: [
          expect.objectContaining({ camera_id: 'cam-1' }),
          expect.objectContaining({ camera_id: 'cam-2' }),
          expect.objectContaining({ camera_id: 'cam-3' }),
        ],
      },
    ]);
    expect(run.stderr).toMatch(/agent stopped/);
  });

  it('exits 2 with a clear message when the server refuses the token', async () => {
    const run = await runAgent('revoked-token', false);
    expect(run.code).toBe(2);
    expect(run.stdout).toEqual([]);
    expect(run.stderr).toMatch(/refused the device token \(401 invalid_token/);
  });
});
