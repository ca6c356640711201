/**
 * The system the fuzz harness attacks, all real: a server with embedded PostgreSQL (in this process), three
 * users (owner, admin, other), two devices of the owner, and a device agent (sim backend) in a child process
 * linked to the server — a crash of the agent is its exit, and any uncaught exception it logs is counted.
 * The owner reaches the agent the way the console does: browser token, PeerJS peer, device grant, hello.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { DataConnection, Peer as PeerType } from 'peerjs';
import { peerOptions } from '../../src/agent/link/signalling';
import { authorizeSignalling, loadPeer } from '../../src/agent/wrtc';
import { LINK_KEEPALIVE_INTERVAL_MS } from '../../src/protocol';
import { api, login, startTestServer, type TestServer } from '../unit/server/helpers';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface FuzzUser {
  email: string;
  password: string;
  id: string;
  token: string;
  refreshToken: string;
}

/** The agent child process, watched. */
export interface AgentProcess {
  deviceId: string;
  child: ChildProcess;
  /** Exit code or signal once it exited (a crash), else null. */
  exited(): string | null;
  /** stderr lines reporting an uncaught exception or unhandled rejection. */
  uncaught: string[];
  /** The last stderr lines (diagnostics). */
  tail: string[];
  stop(): Promise<void>;
}

export interface FuzzEnv {
  server: TestServer;
  owner: FuzzUser;
  admin: FuzzUser;
  other: FuzzUser;
  /** The device the agent runs as. */
  agentDevice: { id: string; device_id: string; token: string };
  /** A second device of the owner, without an agent: REST calls may change it (cameras, tokens). */
  restDevice: { id: string; device_id: string; token: string };
  agent: AgentProcess;
  /** A greeted device link from a new owner browser peer (as the console opens one). */
  openOwnerLink(): Promise<OwnerLink>;
  dispose(): Promise<void>;
}

/** A greeted link: the PeerJS data connection and its peer. */
export interface OwnerLink {
  peer: PeerType;
  conn: DataConnection;
  browserId: string;
  close(): void;
}

let browserSeq = 0;

/** A browser peer id: web- and 16 random characters (the console's shape). */
export const browserIdOf = (prefix: string) =>
  `web-${prefix}${(++browserSeq).toString(36)}${Math.random().toString(36).slice(2, 10)}`.slice(0, 60);

/** A signalling token for `browserId` from the server, for `user`. */
export async function browserToken(
  server: { url: string },
  user: FuzzUser,
  browserId: string,
): Promise<string> {
  const res = await api(server, 'POST', 'get_browser_token', {
    token: user.token,
    body: { browser_id: browserId },
  });
  if (res.status !== 200) throw new Error(`get_browser_token: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token as string;
}

/** Opens a greeted link from a fresh browser peer of `user` to `deviceId` (hello with a server grant). */
export async function openLink(
  server: { url: string },
  user: FuzzUser,
  deviceId: string,
  timeoutMs = 15_000,
): Promise<OwnerLink> {
  const browserId = browserIdOf('fz');
  const token = await browserToken(server, user, browserId);
  const Peer = await loadPeer();
  authorizeSignalling(browserId, token); // a header, never the URL (issue 15)
  const peer = new Peer(browserId, peerOptions(server.url, undefined, []));
  const fail = (what: string) => new Error(`link to ${deviceId}: ${what} within ${timeoutMs} ms`);
  try {
    await withTimeout(
      new Promise<void>((resolve, reject) => {
        peer.once('open', () => resolve());
        peer.once('error', reject);
      }),
      timeoutMs,
      fail('no signalling open'),
    );
    const grantRes = await api(server, 'POST', 'device-grant', {
      token: user.token,
      body: { device_id: deviceId, browser_id: browserId },
    });
    if (grantRes.status !== 200)
      throw new Error(`device-grant: ${grantRes.status} ${JSON.stringify(grantRes.body)}`);
    const conn = peer.connect(deviceId, { serialization: 'json', reliable: true });
    await withTimeout(
      new Promise<void>((resolve, reject) => {
        conn.once('open', () => resolve());
        conn.once('error', reject);
      }),
      timeoutMs,
      fail('no data connection'),
    );
    const greeted = new Promise<void>((resolve, reject) => {
      const onData = (d: unknown) => {
        const m = d as { type?: string };
        if (m?.type === 'hello.ok') {
          conn.off('data', onData);
          resolve();
        } else if (m?.type === 'hello.error') reject(new Error(`hello.error: ${JSON.stringify(m)}`));
      };
      conn.on('data', onData);
    });
    void conn.send({ type: 'hello', grant: grantRes.body.grant });
    await withTimeout(greeted, timeoutMs, fail('no hello.ok'));
    // §9 keep-alive, as the console sends it: the agent closes a link silent for LINK_SILENCE_TIMEOUT_MS.
    const keepAlive = setInterval(() => {
      if (conn.open) void conn.send({ type: 'keepalive' });
    }, LINK_KEEPALIVE_INTERVAL_MS);
    conn.on('close', () => clearInterval(keepAlive));
    return {
      peer,
      conn,
      browserId,
      close() {
        clearInterval(keepAlive);
        try {
          conn.close();
        } catch {
          // closed
        }
        peer.destroy();
      },
    };
  } catch (err) {
    peer.destroy();
    throw err;
  }
}

/** Resolves with `p`, or rejects with `err` after `ms`. */
export function withTimeout<T>(p: Promise<T>, ms: number, err: Error): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(err), ms);
    }),
  ]);
}

/** Starts the agent CLI (sim backend, x86, 2 cameras) for a device token; resolves once it is ready. */
export async function startAgentProcess(serverUrl: string, token: string): Promise<AgentProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/agent/main.ts',
      '--server',
      serverUrl,
      '--kind',
      'x86',
      '--cameras',
      '2',
      '--label',
      'fuzz',
    ],
    {
      cwd: ROOT,
      // The sim answers power commands but stays online (restartItself {} is a valid baseline).
      env: { ...process.env, AGENT_TOKEN: token, AGENT_EXIT_WITH_PARENT: '1', EDGE_SIM_POWER_DRY_RUN: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let exit: string | null = null;
  const uncaught: string[] = [];
  const tail: string[] = [];
  const exitedPromise = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      exit = `exit code ${code} signal ${signal}`;
      if (process.env.FUZZ_DEBUG) process.stderr.write(`agent exited: ${exit}\n${tail.join('\n')}\n`);
      resolve();
    }),
  );
  createInterface({ input: child.stderr! }).on('line', (line) => {
    tail.push(line.slice(0, 500));
    if (tail.length > 50) tail.shift();
    if (/uncaught exception|unhandled rejection/i.test(line)) uncaught.push(line.slice(0, 1000));
  });
  const deviceId = await withTimeout(
    new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        try {
          const m = JSON.parse(line) as { event?: string; device_id?: string };
          if (m.event === 'ready' && m.device_id) resolve(m.device_id);
        } catch {
          // not the ready line
        }
      });
      void exitedPromise.then(() =>
        reject(new Error(`agent exited before ready: ${exit}\n${tail.join('\n')}`)),
      );
    }),
    60_000,
    new Error('agent not ready within 60 s'),
  );
  return {
    deviceId,
    child,
    exited: () => exit,
    uncaught,
    tail,
    async stop() {
      if (exit) return;
      child.kill('SIGTERM');
      await withTimeout(exitedPromise, 8_000, new Error('agent did not stop')).catch(() =>
        child.kill('SIGKILL'),
      );
    },
  };
}

async function makeUser(server: TestServer, name: string, roles: ('admin' | 'user')[]): Promise<FuzzUser> {
  const email = `${name}@fuzz.example.com`;
  const password = `${name}-pw-2026`;
  const { id } = await server.seed.ensureUser({ email, password, roles });
  const l = await login(server, email, password);
  return { email, password, id, token: l.token, refreshToken: l.refresh_token };
}

/** Starts the whole system under attack. */
export async function startFuzzEnv(): Promise<FuzzEnv> {
  const server = await startTestServer();
  const links: OwnerLink[] = [];
  let agent: AgentProcess | null = null;
  try {
    const owner = await makeUser(server, 'owner', ['user']);
    const admin = await makeUser(server, 'admin', ['admin']);
    const other = await makeUser(server, 'other', ['user']);
    const a = await server.seed.ensureDevice({ ownerId: owner.id, label: 'Fuzz agent', chipsetId: '0' });
    const agentDevice = { ...a, token: await server.seed.issueDeviceToken(a.id) };
    const b = await server.seed.ensureDevice({ ownerId: owner.id, label: 'Fuzz REST', chipsetId: '23' });
    const restDevice = { ...b, token: await server.seed.issueDeviceToken(b.id) };
    agent = await startAgentProcess(server.url, agentDevice.token);
    const running = agent;
    return {
      server,
      owner,
      admin,
      other,
      agentDevice,
      restDevice,
      agent,
      async openOwnerLink() {
        const link = await openLink(server, owner, agentDevice.device_id);
        links.push(link);
        return link;
      },
      async dispose() {
        for (const l of links) l.close();
        await running.stop();
        await server.dispose();
      },
    };
  } catch (err) {
    await agent?.stop();
    await server.dispose();
    throw err;
  }
}
