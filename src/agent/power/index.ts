/**
 * The device's power part (§7 "Client and settings": restartItself, restartDevice, shutDownDevice,
 * force-shut-down; "Sudo": check-sudo-saved, check-sudo, remove-saved-sudo; §8 texts in POWER_TEXTS).
 *
 * Sudo, both modes: a password is checked (host: for real with `sudo -S -k -v`, hostSudo.ts; sim: against
 * the one configured password, SIM_SUDO_PASSWORD_ENV, default DEFAULT_SIM_SUDO_PASSWORD) and may be saved
 * encrypted in the state directory (sudoStore.ts) for later commands. A power command takes the password just
 * checked, or else uses the saved one; none that works → sudo_required "Sudo privileged is required".
 *
 * Power: the command is answered first, then acted on POWER_ACT_DELAY_MS later (the reply must leave).
 *  - host: the real commands (hostCommands.ts) ONLY with EDGE_AGENT_ALLOW_POWER=1, else power_disabled;
 *  - sim: the device goes off the air (AgentLifecycle.goOffline: links closed, streams ended, signalling
 *    left) and comes back by itself: reboot after SIM_REBOOT_MS, shut-down and force shut-down after
 *    SIM_SHUTDOWN_MS (as if powered on again), restartItself after SIM_RESTART_MS. Each from an env var.
 */
import { timingSafeEqual } from 'node:crypto';
import type { PowerAction, PowerReply } from '../../protocol/power';
import { POWER_ERROR_CODES, POWER_TEXTS } from '../../protocol/power';
import { CommandError } from '../commands/errors';
import type { AgentPartDeps } from '../parts';
import {
  ALLOW_POWER_ENV,
  HOST_POWER_COMMANDS,
  powerAllowed,
  respawnSelf,
  runPowerCommand,
  runsAsRoot,
  type HostPowerCommands,
} from './hostCommands';
import { checkSudoPassword, type SudoOutcome } from './hostSudo';
import { createSudoStore } from './sudoStore';

export { ALLOW_POWER_ENV } from './hostCommands';

/** The sim devices' sudo password unless SIM_SUDO_PASSWORD_ENV sets another. */
export const DEFAULT_SIM_SUDO_PASSWORD = 'edge-sim';
export const SIM_SUDO_PASSWORD_ENV = 'EDGE_SIM_SUDO_PASSWORD';
/** sim: how long a device is off the air, ms (env vars of the same names override). */
export const SIM_DEFAULT_TIMINGS = {
  EDGE_SIM_REBOOT_MS: 8_000,
  EDGE_SIM_SHUTDOWN_MS: 30_000,
  EDGE_SIM_RESTART_MS: 3_000,
} as const;
/**
 * sim: with this env var set to 1 the power commands are answered but the device stays on the air (hostile-input
 * runs that send every command, e.g. the fuzz harness, keep their link).
 */
export const SIM_POWER_DRY_RUN_ENV = 'EDGE_SIM_POWER_DRY_RUN';
/** Between a power command's reply and the act, ms. */
export const POWER_ACT_DELAY_MS = 300;

/** The power device actions that need sudo. */
export type DeviceAction = Exclude<PowerAction, 'restartClient'>;

export interface DevicePower {
  /** check-sudo-saved: a password is saved; one is needed at all (false: host agent running as root). */
  sudoStatus(): Promise<{ saved: boolean; needed: boolean }>;
  /** check-sudo: valid or CommandError invalid_password "Invalid Password."; `save` stores it encrypted. */
  checkSudo(password: string, save: boolean): Promise<{ valid: true; saved: boolean }>;
  /** remove-saved-sudo: false when none was saved. */
  removeSaved(): Promise<boolean>;
  /**
   * restartDevice / shutDownDevice / force-shut-down. CommandError: invalid_password (the given password is
   * wrong), sudo_required (none given and none saved that works), power_disabled (host without
   * EDGE_AGENT_ALLOW_POWER=1), power_failed / force_failed (host: the command failed).
   */
  act(action: DeviceAction, password?: string): Promise<PowerReply>;
  /** restartItself: the agent leaves and comes back (host: power_disabled without EDGE_AGENT_ALLOW_POWER=1). */
  restartClient(): Promise<PowerReply>;
  /** Stops what the part runs (a pending act); idempotent. */
  close(): Promise<void>;
}

/** Replacements for tests: host commands, the sudo program, sim timings, the self restart. */
export interface DevicePowerOptions {
  env?: NodeJS.ProcessEnv;
  hostCommands?: HostPowerCommands;
  sudo?: string;
  sudoTimeoutMs?: number;
  /** host: does the agent run as root (default: its uid is 0)? */
  root?: boolean;
  restartSelf?: () => void;
}

const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** A non-negative whole number of ms from the environment, else the default. */
function envMs(env: NodeJS.ProcessEnv, name: keyof typeof SIM_DEFAULT_TIMINGS): number {
  const v = Number(env[name]);
  return Number.isFinite(v) && v >= 0 ? Math.round(v) : SIM_DEFAULT_TIMINGS[name];
}

const invalidPassword = () =>
  new CommandError(POWER_ERROR_CODES.invalidPassword, POWER_TEXTS.invalidPassword);
const sudoRequired = () => new CommandError(POWER_ERROR_CODES.sudoRequired, POWER_TEXTS.sudoRequired);

export function createDevicePower(deps: AgentPartDeps, options: DevicePowerOptions = {}): DevicePower {
  const env = options.env ?? process.env;
  const host = deps.mode === 'host';
  const root = options.root ?? runsAsRoot();
  const needed = !(host && root);
  const store = createSudoStore(deps.stateDir);
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  /** Is `password` the device's sudo password? host: sudo's word ('accepted' only). */
  async function verify(password: string): Promise<boolean> {
    if (!host) return sameText(password, env[SIM_SUDO_PASSWORD_ENV] || DEFAULT_SIM_SUDO_PASSWORD);
    const outcome: SudoOutcome = await checkSudoPassword(password, {
      sudo: options.sudo,
      timeoutMs: options.sudoTimeoutMs,
    });
    if (outcome !== 'accepted') {
      const why: Record<Exclude<SudoOutcome, 'accepted'>, string> = {
        wrong: 'sudo refused it',
        absent: 'sudo is not installed on this machine',
        unasked: 'sudo did not ask for a password (root or NOPASSWD), so it proves nothing',
        timeout: 'sudo did not answer in time',
      };
      deps.log.warn(`sudo password not accepted: ${why[outcome]}`);
    }
    return outcome === 'accepted';
  }

  /** The sudo password a power command runs with (null: none needed); CommandError when there is none. */
  async function sudoFor(password: string | undefined): Promise<string | null> {
    if (!needed) return null;
    if (password !== undefined) {
      if (!(await verify(password))) throw invalidPassword();
      return password;
    }
    const saved = await store.load();
    if (saved === null || !(await verify(saved))) throw sudoRequired();
    return saved;
  }

  /** Runs `fn` POWER_ACT_DELAY_MS from now unless closed first. */
  const later = (fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      if (!closed) fn();
    }, POWER_ACT_DELAY_MS);
    timers.add(t);
  };

  const offAir = (action: PowerAction, ms: number): PowerReply => {
    if (env[SIM_POWER_DRY_RUN_ENV] === '1') {
      deps.log.info(`sim ${action}: accepted, staying on the air (${SIM_POWER_DRY_RUN_ENV}=1)`);
      return { accepted: true, action, offline_ms: 0 };
    }
    deps.log.info(`sim ${action}: off the air for ${ms} ms`);
    later(() => void deps.lifecycle?.goOffline(ms));
    return { accepted: true, action, offline_ms: ms };
  };

  const disabled = () =>
    new CommandError(
      POWER_ERROR_CODES.powerDisabled,
      `Power actions are turned off on this device (start its agent with ${ALLOW_POWER_ENV}=1 to allow them)`,
    );

  async function hostAct(action: DeviceAction, sudo: string | null): Promise<PowerReply> {
    const argv = (options.hostCommands ?? HOST_POWER_COMMANDS)[action];
    deps.log.info(`power: ${action} (${argv.join(' ')})`);
    const out = await runPowerCommand(argv, sudo);
    if (out.code !== null && out.code !== 0) {
      const detail = out.stderr || `${argv[0]} exited with status ${out.code}`;
      if (action === 'forceShutdown') {
        throw new CommandError(POWER_ERROR_CODES.forceFailed, `${POWER_TEXTS.forceFailed}: ${detail}`);
      }
      throw new CommandError(POWER_ERROR_CODES.powerFailed, detail);
    }
    return { accepted: true, action, offline_ms: null };
  }

  return {
    async sudoStatus() {
      return { saved: await store.has(), needed };
    },

    async checkSudo(password, save) {
      if (!(await verify(password))) throw invalidPassword();
      if (save) await store.save(password);
      return { valid: true, saved: await store.has() };
    },

    removeSaved: () => store.remove(),

    async act(action, password) {
      if (host && !powerAllowed(env)) throw disabled();
      const sudo = await sudoFor(password);
      if (host) return hostAct(action, sudo);
      return offAir(action, envMs(env, action === 'reboot' ? 'EDGE_SIM_REBOOT_MS' : 'EDGE_SIM_SHUTDOWN_MS'));
    },

    async restartClient() {
      if (!host) return offAir('restartClient', envMs(env, 'EDGE_SIM_RESTART_MS'));
      if (!powerAllowed(env)) throw disabled();
      deps.log.info('power: restarting the agent');
      later(options.restartSelf ?? respawnSelf);
      return { accepted: true, action: 'restartClient', offline_ms: null };
    },

    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
