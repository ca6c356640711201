/**
 * What the settings part asks of the machine it runs on (SettingsSystem): the home path, whether the client
 * starts at boot, the FRP client, the Jetson service (nvpmodel / jetson_clocks) and reaching a CIE. `host`
 * (hostSystem) asks this machine for real; `sim` (simSystem) simulates a device. Refusals throw CommandError
 * with SETTINGS_ERROR_CODES (shown to the user as the device's error, §8).
 */
import { execFile } from 'node:child_process';
import os from 'node:os';
import { SETTINGS_ERROR_CODES, SETTINGS_TEXTS, type JetsonServiceInput } from '../../protocol/deviceSettings';
import { CommandError } from '../commands/errors';
import { errorMessage } from '../log';

/** Whether the client starts at boot, as the machine says. supported false: note says why it cannot. */
export interface StartupState {
  enabled: boolean;
  supported: boolean;
  note: string | null;
}

export interface SettingsSystem {
  /** The home directory of the user the client runs as. */
  homePath(): string;
  /** Reads start-at-boot; `stored` is the stored value (what a machine that cannot say reports). */
  readStartup(stored: boolean): Promise<StartupState>;
  /** Enables or disables start-at-boot; throws 'unsupported' or 'failed'. */
  setStartup(enabled: boolean): Promise<void>;
  /** Restarts the FRP client; answers its service name. Throws 'unsupported' or 'failed'. */
  restartFrp(): Promise<string>;
  /** The Jetson service as the device has it; `stored` is what was last set. */
  readJetson(stored: JetsonServiceInput): Promise<JetsonServiceInput>;
  /** Applies the Jetson service (the caller refuses on x86). Throws 'failed'. */
  applyJetson(input: JetsonServiceInput): Promise<void>;
  /** Reaches the CIE at `url`; throws 'unreachable' when it does not answer. */
  reachCie(url: string): Promise<void>;
}

/** How long a CIE has to answer, ms. */
export const CIE_TIMEOUT_MS = 5_000;
/** How long a system command may run, ms. */
const COMMAND_TIMEOUT_MS = 30_000;

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The program does not exist (ENOENT). */
  missing: boolean;
}

/** Runs `file args` without a shell; never throws. */
export function run(file: string, args: readonly string[]): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: COMMAND_TIMEOUT_MS, encoding: 'utf8' }, (err, stdout, stderr) => {
      const e = err as (NodeJS.ErrnoException & { code?: string | number }) | null;
      resolve({
        code: e ? (typeof e.code === 'number' ? e.code : 1) : 0,
        stdout: String(stdout ?? ''),
        stderr: String(stderr ?? ''),
        missing: e?.code === 'ENOENT',
      });
    });
  });
}

const failed = (what: string, r: RunResult) =>
  new CommandError(
    SETTINGS_ERROR_CODES.failed,
    `${what} failed: ${(r.stderr || r.stdout).trim() || `exit code ${r.code}`}`,
  );

/** Reaches `url` with an HTTP GET (any HTTP answer counts); throws 'unreachable' otherwise. */
async function fetchCie(url: string): Promise<void> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(CIE_TIMEOUT_MS), redirect: 'manual' });
    await res.body?.cancel().catch(() => undefined);
  } catch (err) {
    throw new CommandError(
      SETTINGS_ERROR_CODES.unreachable,
      `The CIE at ${url} did not answer: ${errorMessage(err)}`,
    );
  }
}

export interface HostSystemOptions {
  /** The systemd unit that runs the agent (EDGE_AGENT_UNIT, default 'edge-agent.service'). */
  agentUnit?: string;
  /** The systemd unit of the FRP client (EDGE_FRPC_UNIT, default 'frpc.service'). */
  frpUnit?: string;
  /** Runs a program (tests replace it). */
  run?: typeof run;
}

/** This machine, for real: os.homedir(), systemctl, nvpmodel / jetson_clocks, fetch. */
export function hostSystem(options: HostSystemOptions = {}): SettingsSystem {
  const agentUnit = options.agentUnit ?? process.env.EDGE_AGENT_UNIT ?? 'edge-agent.service';
  const frpUnit = options.frpUnit ?? process.env.EDGE_FRPC_UNIT ?? 'frpc.service';
  const exec = options.run ?? run;

  /** The unit's load state ('loaded', 'not-found', …), or null without systemctl. */
  const loadState = async (unit: string): Promise<string | null> => {
    const r = await exec('systemctl', ['show', '-p', 'LoadState', '--value', unit]);
    if (r.missing) return null;
    return r.stdout.trim() || 'not-found';
  };

  const startup = async (stored: boolean): Promise<StartupState> => {
    const state = await loadState(agentUnit);
    if (state === null) return { enabled: stored, supported: false, note: SETTINGS_TEXTS.noSystemctl };
    if (state !== 'loaded') return { enabled: stored, supported: false, note: SETTINGS_TEXTS.noStartupUnit };
    const r = await exec('systemctl', ['is-enabled', agentUnit]);
    const word = r.stdout.trim();
    return { enabled: word === 'enabled' || word === 'enabled-runtime', supported: true, note: null };
  };

  return {
    homePath: () => os.homedir(),
    readStartup: startup,
    async setStartup(enabled) {
      const state = await startup(enabled);
      if (!state.supported) throw new CommandError(SETTINGS_ERROR_CODES.unsupported, state.note ?? '');
      const r = await exec('systemctl', [enabled ? 'enable' : 'disable', agentUnit]);
      if (r.code !== 0) throw failed(`systemctl ${enabled ? 'enable' : 'disable'} ${agentUnit}`, r);
    },
    async restartFrp() {
      const state = await loadState(frpUnit);
      if (state !== 'loaded') {
        throw new CommandError(SETTINGS_ERROR_CODES.unsupported, SETTINGS_TEXTS.noFrpClient);
      }
      const r = await exec('systemctl', ['restart', frpUnit]);
      if (r.code !== 0) throw failed(`systemctl restart ${frpUnit}`, r);
      return frpUnit;
    },
    async readJetson(stored) {
      const r = await exec('nvpmodel', ['-q']);
      if (r.code !== 0) return stored;
      // `nvpmodel -q` prints "NV Power Mode: MAXN" then the mode id on its own line.
      const id = r.stdout
        .trim()
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => /^\d+$/.test(l))
        .pop();
      return id === undefined ? stored : { ...stored, powerMode: Number(id) };
    },
    async applyJetson(input) {
      const mode = await exec('nvpmodel', ['-m', String(input.powerMode)]);
      if (mode.code !== 0) throw failed(`nvpmodel -m ${input.powerMode}`, mode);
      const clocks = await exec('jetson_clocks', input.jetsonClocks ? [] : ['--restore']);
      if (clocks.code !== 0) throw failed(`jetson_clocks${input.jetsonClocks ? '' : ' --restore'}`, clocks);
    },
    reachCie: fetchCie,
  };
}

/** Simulated steps' duration (restart of the FRP client), ms. */
export const SIM_RESTART_MS = 300;

/**
 * A simulated device: home '/home/edge', start-at-boot kept in the settings file, an FRP client that restarts
 * in SIM_RESTART_MS, a Jetson service that takes any mode, and a CIE reached unless its host name ends with
 * '.invalid' (RFC 2606) — so tests can see both answers without a network.
 */
export function simSystem(): SettingsSystem {
  return {
    homePath: () => '/home/edge',
    readStartup: async (stored) => ({ enabled: stored, supported: true, note: null }),
    setStartup: async () => undefined,
    restartFrp: async () => {
      await new Promise((r) => setTimeout(r, SIM_RESTART_MS));
      return 'frpc.service';
    },
    readJetson: async (stored) => stored,
    applyJetson: async () => undefined,
    async reachCie(url) {
      const host = new URL(url).hostname;
      if (host.endsWith('.invalid')) {
        throw new CommandError(
          SETTINGS_ERROR_CODES.unreachable,
          `The CIE at ${url} did not answer: ${host} not found`,
        );
      }
    },
  };
}
