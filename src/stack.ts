/**
 * The whole system on one machine: server (with embedded PostgreSQL unless DATABASE_URL is set), a seeded
 * demo account owning simulated devices, and one device agent process per device (`src/agent/main.ts`,
 * backend `sim`). Used by `npm start` (src/start.ts), the end-to-end tests and the benchmarks.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from './server/index';
import { startDemoRegistry } from './server/registry/local';
import type { SimFault } from './agent/options';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A simulated device to seed and run. cameras: 2–4 synthetic cameras. */
export interface SimDeviceSpec {
  label: string;
  kind: 'jetson' | 'x86';
  cameras?: number;
  /**
   * unique_id of a physical camera this device shares with other devices (agent flag `--shared-camera`): its
   * first camera reports that unique_id and shows the same picture on each (§2 camera chooser).
   */
  sharedCamera?: string;
  /** Concurrent streams the server allows on this device (usage/check_stream_limit; default 16). */
  maxStreams?: number;
  /** Where the device stands on the map (/map), degrees; unplaced when absent. */
  location?: { latitude: number; longitude: number };
  /** Simulated failures (agent flag `--sim-fault`, src/agent/options.ts SIM_FAULTS); tests only. */
  faults?: SimFault[];
}
/** An IP camera of a user (§3 IP camera), reached through the user's device labelled `via`. */
export interface IpCameraSpec {
  label: string;
  /** rtsp://, http(s)://, a file path, or sim://<name> (a simulated network camera). */
  url: string;
  /** Label of the user's device whose agent pulls the camera. */
  via: string;
}
/** An account to seed, with its devices. */
export interface UserSpec {
  email: string;
  password: string;
  username?: string;
  roles?: Array<'admin' | 'user'>;
  devices: SimDeviceSpec[];
  /**
   * IP cameras to seed (idempotent by label). Default: none; for the demo account DEMO_IP_CAMERAS (those
   * whose `via` device is among its devices).
   */
  ipCameras?: IpCameraSpec[];
  /** Also give this account the demo's models and application (the demo account always has them). */
  demoContent?: boolean;
}
export interface StackOptions {
  port?: number;
  host?: string;
  dataDir?: string;
  databaseUrl?: string;
  /** Built console to serve (default `dist/`); null serves the API only. */
  staticDir?: string | null;
  /** The demo account: shown on the login page. */
  demo: UserSpec;
  /** Further accounts (tests). */
  extraUsers?: UserSpec[];
  logLevel?: string;
  /** Sign-in attempts allowed per minute per (ip, email) (server default 20). */
  loginRateLimitPerMin?: number;
  /** Called with each agent's output lines (default: dropped). */
  onAgentLine?: (label: string, line: string) => void;
}
/** One running agent process. */
export interface AgentProcess {
  label: string;
  deviceId: string;
  ownerEmail: string;
  token: string;
  kind: SimDeviceSpec['kind'];
  cameras: number;
  sharedCamera?: string;
  faults?: SimFault[];
  child: ChildProcess;
  /** Set while the stack itself stops this agent: no supervision restart then. */
  stopping?: boolean;
  /** How many times the supervisor restarted it after an unexpected exit. */
  restarts: number;
}
export interface RunningStack {
  url: string;
  server: RunningServer;
  agents: AgentProcess[];
  /** Stop one agent (SIGTERM) and wait for it to exit; it stays stopped (no supervision restart) until restartAgent. */
  stopAgent(deviceId: string): Promise<void>;
  /** Start a stopped agent again with the same token. */
  restartAgent(deviceId: string): Promise<void>;
  /** Stops agents, then the server (and its PostgreSQL). */
  close(): Promise<void>;
}

/**
 * The default demo fleet: one Jetson, two x86 boxes (issue 2), 4 cameras each (12 in all: one full camera
 * page, issue 3). The Gate and Box A both see the physical camera 'usb-3-lobby' (camera chooser, §2).
 */
export const DEMO_DEVICES: SimDeviceSpec[] = [
  {
    label: 'Jetson Orin Gate',
    kind: 'jetson',
    cameras: 4,
    sharedCamera: 'usb-3-lobby',
    location: { latitude: 48.8584, longitude: 2.2945 },
  },
  {
    label: 'x86 Edge Box A',
    kind: 'x86',
    cameras: 4,
    sharedCamera: 'usb-3-lobby',
    location: { latitude: 52.5163, longitude: 13.3777 },
  },
  { label: 'x86 Edge Box B', kind: 'x86', cameras: 4 },
];
/** The demo account's IP camera: a simulated network camera pulled by Box B (§3 IP camera). */
export const DEMO_IP_CAMERAS: IpCameraSpec[] = [
  { label: 'Parking entrance (IP)', url: 'sim://parking', via: 'x86 Edge Box B' },
];

function spawnAgent(url: string, a: Omit<AgentProcess, 'child'>, onLine?: StackOptions['onAgentLine']) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(ROOT, 'src/agent/main.ts'),
      '--server',
      url,
      '--backend',
      'sim',
      '--kind',
      a.kind,
      '--cameras',
      String(a.cameras),
      '--label',
      a.label,
      ...(a.sharedCamera ? ['--shared-camera', a.sharedCamera] : []),
      ...(a.faults ?? []).flatMap((f) => ['--sim-fault', f]),
    ],
    {
      cwd: ROOT,
      // The token travels in the environment, not argv, so `ps` does not show it.
      env: { ...process.env, AGENT_TOKEN: a.token, AGENT_EXIT_WITH_PARENT: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const ready = new Promise<void>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.on('line', (line) => {
      onLine?.(a.label, line);
      if (line.includes('"event":"ready"')) resolve();
    });
    createInterface({ input: child.stderr! }).on('line', (line) => onLine?.(a.label, line));
    child.once('exit', (code) => reject(new Error(`agent ${a.label} exited with code ${code} before ready`)));
  });
  return { child, ready };
}

/** The agent's exit code when the server refuses its token (src/agent/main.ts). */
const AGENT_TOKEN_REFUSED_EXIT = 2;

/** Delay before the supervisor restarts an agent that exited unexpectedly (like systemd's RestartSec). */
export const AGENT_RESTART_DELAY_MS = 1_000;

function waitExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts server, seeds accounts and devices, starts one agent process per device and waits until all are ready. */
export async function startStack(options: StackOptions): Promise<RunningStack> {
  // The demo image registry (/repositories) unless REGISTRY_URL names one: src/server/registry/local.ts.
  const registry = options.dataDir ? await startDemoRegistry(path.join(options.dataDir, 'registry')) : null;
  const server = await startServer({
    port: options.port,
    host: options.host,
    dataDir: options.dataDir,
    databaseUrl: options.databaseUrl,
    staticDir: options.staticDir === undefined ? path.join(ROOT, 'dist') : options.staticDir,
    demoAccount: { email: options.demo.email, password: options.demo.password },
    logLevel: options.logLevel ?? 'warn',
    loginRateLimitPerMin: options.loginRateLimitPerMin,
  });
  const agents: AgentProcess[] = [];
  try {
    for (const user of [options.demo, ...(options.extraUsers ?? [])]) {
      const { id: ownerId } = await server.seed.ensureUser({
        email: user.email,
        password: user.password,
        username: user.username,
        roles: user.roles ?? ['user'],
      });
      await server.seed.ensureGroups(ownerId);
      if (user.demoContent) await server.seed.ensureDemoContent(ownerId);
      const rowIds = new Map<string, string>();
      for (const d of user.devices) {
        const row = await server.seed.ensureDevice({
          ownerId,
          label: d.label,
          chipsetId: d.kind === 'x86' ? '0' : '23',
          jetpack: d.kind === 'jetson' ? '6.0' : null,
          location: d.location ?? null,
        });
        rowIds.set(d.label, row.id);
        if (d.maxStreams !== undefined) await server.seed.setStreamLimit(row.id, d.maxStreams);
        const token = await server.seed.issueDeviceToken(row.id);
        agents.push({
          label: d.label,
          deviceId: row.device_id,
          ownerEmail: user.email,
          token,
          kind: d.kind,
          cameras: d.cameras ?? 2,
          sharedCamera: d.sharedCamera,
          faults: d.faults,
          child: undefined as unknown as ChildProcess,
          restarts: 0,
        });
      }
      const ipCameras =
        user.ipCameras ?? (user === options.demo ? DEMO_IP_CAMERAS.filter((c) => rowIds.has(c.via)) : []);
      for (const c of ipCameras) {
        const deviceRowId = rowIds.get(c.via);
        if (!deviceRowId) throw new Error(`IP camera "${c.label}": ${user.email} has no device "${c.via}"`);
        await server.seed.ensureIpCamera({ ownerId, deviceRowId, label: c.label, url: c.url });
      }
    }
    await Promise.all(
      agents.map((a) => {
        const { child, ready } = spawnAgent(server.url, a, options.onAgentLine);
        a.child = child;
        return ready;
      }),
    );
  } catch (err) {
    await Promise.all(agents.filter((a) => a.child).map((a) => (a.child.kill('SIGTERM'), waitExit(a.child))));
    await server.close();
    await registry?.close();
    throw err;
  }

  // `npm start` supervises its agents as a device's service manager would: an agent that crashes or is
  // killed comes back after AGENT_RESTART_DELAY_MS with the same token. The pids are written to
  // DATA_DIR/agents.json so tests can kill one and watch the console recover.
  const writePids = () => {
    if (!options.dataDir) return;
    const list = agents.map((a) => ({ label: a.label, deviceId: a.deviceId, pid: a.child.pid ?? null }));
    writeFileSync(path.join(options.dataDir, 'agents.json'), `${JSON.stringify(list, null, 2)}\n`);
  };
  let closing = false;
  const supervise = (a: AgentProcess) => {
    a.child.once('exit', (code, signal) => {
      if (closing || a.stopping) return;
      if (code === AGENT_TOKEN_REFUSED_EXIT) {
        // Its token was replaced (generate_token) or the device deleted: restarting cannot help.
        options.onAgentLine?.(a.label, 'agent exited: the server refuses its token; not restarted');
        return;
      }
      options.onAgentLine?.(
        a.label,
        `agent exited (${signal ?? code}); restarting in ${AGENT_RESTART_DELAY_MS} ms`,
      );
      setTimeout(() => {
        if (closing || a.stopping) return;
        const { child, ready } = spawnAgent(server.url, a, options.onAgentLine);
        a.child = child;
        a.restarts += 1;
        supervise(a);
        writePids();
        ready.catch((err: unknown) => options.onAgentLine?.(a.label, String(err)));
      }, AGENT_RESTART_DELAY_MS);
    });
  };
  for (const a of agents) supervise(a);
  writePids();

  const find = (deviceId: string) => {
    const a = agents.find((x) => x.deviceId === deviceId);
    if (!a) throw new Error(`no agent for ${deviceId}`);
    return a;
  };
  return {
    url: server.url,
    server,
    agents,
    async stopAgent(deviceId) {
      const a = find(deviceId);
      a.stopping = true;
      a.child.kill('SIGTERM');
      await waitExit(a.child);
    },
    async restartAgent(deviceId) {
      const a = find(deviceId);
      const { child, ready } = spawnAgent(server.url, a, options.onAgentLine);
      a.child = child;
      a.stopping = false;
      supervise(a);
      writePids();
      await ready;
    },
    async close() {
      closing = true;
      await Promise.all(
        agents.map((a) => {
          a.child.kill('SIGTERM');
          return waitExit(a.child);
        }),
      );
      await server.close();
      await registry?.close();
    },
  };
}
