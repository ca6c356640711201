/**
 * The power feature's device commands (§7 "Client and settings": restartItself, restartDevice, shutDownDevice,
 * force-shut-down; "Sudo": check-sudo-saved, check-sudo, remove-saved-sudo; §5 sudo dialog texts; §8 "Sudo
 * privileged is required", "Unable to force shut down the device", "Success", "Shutdown Successful"; §9
 * "Client restarts 10 s after confirm").
 * Shapes the spec does not give ("not shown") are ours, documented field by field with units.
 *
 * Flow (console): confirm → check-sudo-saved → (not saved) the sudo dialog → check-sudo → the power command →
 * the device goes off the air (its link closes, it leaves signalling) → it comes back → the §8 Success text.
 * Refusals are CommandErrors with the codes of POWER_ERROR_CODES and the §5/§8 texts of POWER_TEXTS.
 */
import { z } from 'zod';
import { defineCommands, Empty } from './command';

import { POWER_TEXTS, SUDO_PASSWORD_MAX_CHARS } from './powerTexts';

export {
  CLIENT_RESTART_DELAY_MS,
  POWER_ERROR_CODES,
  POWER_TEXTS,
  SUDO_PASSWORD_MAX_CHARS,
} from './powerTexts';

/**
 * A sudo password as typed: 1–SUDO_PASSWORD_MAX_CHARS characters, not trimmed (spaces may be part of it);
 * empty → invalid_payload with the §5 text "Password field can not be empty". Never logged by the agent.
 */
export const SudoPassword = z.string().min(1, POWER_TEXTS.emptyPassword).max(SUDO_PASSWORD_MAX_CHARS);

/**
 * Request of the three device power commands. `password`: the sudo password just checked in the dialog; when
 * absent the device uses its saved one (check-sudo with save), and answers sudo_required ("Sudo privileged is
 * required") when it has none that works.
 */
export const PowerRequest = z.object({ password: SudoPassword.optional() }).strict();

/**
 * Answer of a power command, sent before the device acts (it acts POWER_ACT_DELAY_MS later, so the reply
 * reaches the console). offline_ms: how long a simulated device stays off the air, ms; null on a real device
 * (unknown: a reboot "may take a few minutes", §8).
 */
export const PowerReply = z.object({
  accepted: z.literal(true),
  action: z.enum(['reboot', 'shutdown', 'forceShutdown', 'restartClient']),
  offline_ms: z.number().int().min(0).nullable(),
});
export type PowerReply = z.infer<typeof PowerReply>;
export type PowerAction = PowerReply['action'];

/**
 * check-sudo-saved: saved — an encrypted sudo password is stored on the device; needed — the device asks a
 * sudo password at all (false when its agent runs as root: the power commands need none).
 */
export const SudoSavedReply = z.object({ saved: z.boolean(), needed: z.boolean() });

export const powerCommands = defineCommands({
  /** Sudo: is a sudo password saved (encrypted) on the device, and is one needed? */
  'check-sudo-saved': { request: Empty, reply: SudoSavedReply },
  /**
   * Sudo: checks a sudo password on the device (host: `sudo -S -k -v`, the password on stdin; sim: the
   * configured one). Wrong → invalid_password "Invalid Password."; save true stores it encrypted (AES-256-GCM)
   * for later commands. saved: a password is stored now.
   */
  'check-sudo': {
    request: z.object({ password: SudoPassword, save: z.boolean().default(false) }).strict(),
    reply: z.object({ valid: z.literal(true), saved: z.boolean() }),
  },
  /** Sudo: removes the saved sudo password (removed false when none was saved). */
  'remove-saved-sudo': { request: Empty, reply: z.object({ removed: z.boolean() }) },
  /** Reboots the device (host: `systemctl reboot`; sim: off the air a few seconds, then back). Needs sudo. */
  restartDevice: { request: PowerRequest, reply: PowerReply },
  /** Shuts the device down (host: `systemctl poweroff`; sim: off the air longer, then "powered on again"). */
  shutDownDevice: { request: PowerRequest, reply: PowerReply },
  /**
   * Forces the device off (host: `poweroff -f`; sim: as a shut-down). Needs sudo; a failure answers
   * force_failed "Unable to force shut down the device".
   */
  'force-shut-down': { request: PowerRequest, reply: PowerReply },
  /** Restarts the device's client (the agent): it leaves and re-registers shortly after. No sudo. */
  restartItself: { request: Empty, reply: PowerReply },
});
