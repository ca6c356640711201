/**
 * The fault tests' own stack (issue 15): a server process that a test may stop (SIGTERM or SIGKILL) and start
 * again on the same port and DATA_DIR (its embedded PostgreSQL: the same database), and simulated agents run by
 * the test runner itself, so they outlive the server as real devices outlive theirs. See faultServer.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The account faultServer.ts seeds, and its devices. */
export const FAULT_ACCOUNT = { email: 'faults@edge.local', password: 'faults-edge-2026' };
export const FAULT_DEVICES = [
  { label: 'Fault Box A', kind: 'x86' as const, cameras: 2 },
  { label: 'Fault Box B', kind: 'x86' as const, cameras: 2 },
];

export interface FaultAgentSpec {
  label: string;
  deviceId: string;
  token: string;
  kind: 'x86';
  cameras: number;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function waitExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Spawns `node --import tsx <script>` and resolves once it prints a line with `"event":"ready"`. */
function spawnReady(args: string[], env: NodeJS.ProcessEnv, name: string, lines: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (line: string) => {
    lines.push(`[${name}] ${line}`);
    if (lines.length > 400) lines.shift();
  };
  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      keep(line);
      if (line.includes('"event":"ready"')) resolve();
    });
    createInterface({ input: child.stderr! }).on('line', keep);
    child.once('exit', (code, signal) =>
      reject(new Error(`${name} exited (${signal ?? code}) before ready`)),
    );
  });
  return { child, ready };
}

export class RestartableStack {
  readonly dataDir = mkdtempSync(path.join(os.tmpdir(), 'edge-faults-'));
  readonly url: string;
  private server: ChildProcess | null = null;
  private readonly agents = new Map<string, ChildProcess>();
  /** The last lines of the server's and agents' output (printed by a failing test). */
  readonly lines: string[] = [];
  agentSpecs: FaultAgentSpec[] = [];

  constructor(readonly port: number) {
    this.url = `http://127.0.0.1:${port}`;
  }

  /** Starts the server process (first time: seeds the account, issues the device tokens). */
  async startServer(): Promise<void> {
    const { child, ready } = spawnReady(
      ['tests/e2e/faultServer.ts'],
      { PORT: String(this.port), DATA_DIR: this.dataDir, LOG_LEVEL: 'warn' },
      'server',
      this.lines,
    );
    this.server = child;
    await ready;
    this.agentSpecs = JSON.parse(readFileSync(path.join(this.dataDir, 'fault-agents.json'), 'utf8'));
  }

  /** Stops the server process with `signal` and waits until it has exited (the port is free again). */
  async stopServer(signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
    const child = this.server;
    this.server = null;
    if (!child) return;
    child.kill(signal);
    await waitExit(child);
  }

  /** Starts one agent process per seeded device, against this server; resolves when all are registered. */
  async startAgents(): Promise<void> {
    await Promise.all(
      this.agentSpecs.map((a) => {
        const { child, ready } = spawnReady(
          [
            'src/agent/main.ts',
            '--server',
            this.url,
            '--backend',
            'sim',
            '--kind',
            a.kind,
            '--cameras',
            String(a.cameras),
            '--label',
            a.label,
          ],
          { AGENT_TOKEN: a.token, AGENT_EXIT_WITH_PARENT: '1' },
          a.label,
          this.lines,
        );
        this.agents.set(a.deviceId, child);
        return ready;
      }),
    );
  }

  /** Stops agents, then the server (and its PostgreSQL); removes the data directory. */
  async close(): Promise<void> {
    await Promise.all(
      [...this.agents.values()].map((c) => {
        c.kill('SIGTERM');
        return waitExit(c);
      }),
    );
    this.agents.clear();
    await this.stopServer('SIGTERM');
    const { removeDataDir } = await import('../../src/server/db/embedded');
    removeDataDir(this.dataDir);
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
