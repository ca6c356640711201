/**
 * The real power commands of the `host` backend (§7 restartDevice, shutDownDevice, force-shut-down,
 * restartItself). They run ONLY when the agent's environment has EDGE_AGENT_ALLOW_POWER=1 (never power off a
 * machine by accident: tests and development machines leave it unset); otherwise power_disabled.
 * As root they run directly; otherwise through `sudo -S -p ''` with the sudo password on stdin.
 */
import { spawn } from 'node:child_process';

/** The environment switch that allows real power actions on a host device. */
export const ALLOW_POWER_ENV = 'EDGE_AGENT_ALLOW_POWER';

/** Commands per action (argv). */
export const HOST_POWER_COMMANDS = {
  reboot: ['systemctl', 'reboot'],
  shutdown: ['systemctl', 'poweroff'],
  forceShutdown: ['poweroff', '-f'],
} as const satisfies Record<string, readonly string[]>;
export type HostPowerCommands = Record<keyof typeof HOST_POWER_COMMANDS, readonly string[]>;

/** How long a power command may run before it counts as started (the machine may go down before it exits), ms. */
export const COMMAND_SETTLE_MS = 5_000;

/** Are real power actions allowed (EDGE_AGENT_ALLOW_POWER=1)? */
export const powerAllowed = (env: NodeJS.ProcessEnv = process.env): boolean => env[ALLOW_POWER_ENV] === '1';

/** Does this agent run as root (power commands need no sudo)? */
export const runsAsRoot = (): boolean => process.getuid?.() === 0;

export interface CommandOutcome {
  /** Exit status; null while it still ran after COMMAND_SETTLE_MS (taken as started). */
  code: number | null;
  /** Its last words on stderr (trimmed, at most 500 characters). */
  stderr: string;
}

/**
 * Runs `argv` (through sudo with `password` unless root or no password); resolves with its exit status, or
 * code null when it still runs after `settleMs`. A missing program resolves code 127.
 */
export function runPowerCommand(
  argv: readonly string[],
  password: string | null,
  settleMs = COMMAND_SETTLE_MS,
): Promise<CommandOutcome> {
  const viaSudo = password !== null && !runsAsRoot();
  const [cmd, ...args] = viaSudo ? ['sudo', '-S', '-p', '', '--', ...argv] : [...argv];
  return new Promise((resolve) => {
    let stderr = '';
    let settled = false;
    const done = (code: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ code, stderr: stderr.trim().slice(-500) });
    };
    const child = spawn(cmd!, args, { stdio: ['pipe', 'ignore', 'pipe'] });
    const timer = setTimeout(() => done(null), settleMs);
    child.on('error', (err) => {
      stderr += err.message;
      done(127);
    });
    child.stderr.on('data', (c: Buffer) => {
      if (stderr.length < 4096) stderr += c.toString('utf8');
    });
    child.on('close', (code) => done(code ?? 1));
    child.stdin.on('error', () => undefined);
    child.stdin.end(viaSudo ? `${password}\n` : '');
  });
}

/**
 * Restarts this agent process: starts a detached copy with the same arguments and environment, then exits
 * (under a service manager, its restart policy would do the same).
 */
export function respawnSelf(): void {
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    detached: true,
    stdio: 'inherit',
    env: process.env,
  });
  child.unref();
  process.exit(0);
}
