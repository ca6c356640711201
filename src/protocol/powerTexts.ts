/**
 * The zod-free constants of the power contract (src/protocol/power.ts re-exports them): the §5 sudo dialog
 * texts, the §8 texts of reboot and shut-down, the agent's error codes and the §9 client restart delay. Apart
 * so that the console's machines and screens use them without loading zod (as containerTexts.ts).
 */

/** §5 and §8 texts (English; the console translates them by these keys). */
export const POWER_TEXTS = {
  /** §5 sudo dialog: an empty password. */
  emptyPassword: 'Password field can not be empty',
  /** §5 sudo dialog: a wrong password. */
  invalidPassword: 'Invalid Password.',
  /** §8: the device has no sudo rights the console can use (none saved, none given, or it stopped working). */
  sudoRequired: 'Sudo privileged is required',
  /** §8: force-shut-down failed. */
  forceFailed: 'Unable to force shut down the device',
  /** §8 after a reboot or shut-down was accepted. */
  success: 'Success',
  /** §8 "Success" … "may take a few minutes". */
  mayTakeMinutes: 'The device may take a few minutes.',
  /** §8 after a shut-down. */
  shutdownSuccessful: 'Shutdown Successful',
} as const;

/** Error codes of the power commands (CommandError.code) beyond the link's. */
export const POWER_ERROR_CODES = {
  /** check-sudo: wrong password (or one the device cannot check: no sudo, sudo asks none). */
  invalidPassword: 'invalid_password',
  /** A power command without a usable sudo password. */
  sudoRequired: 'sudo_required',
  /** host: power actions are off (EDGE_AGENT_ALLOW_POWER is not 1). */
  powerDisabled: 'power_disabled',
  /** host: the power command failed (its exit status and words in the message). */
  powerFailed: 'power_failed',
  /** force-shut-down failed. */
  forceFailed: 'force_failed',
} as const;

/** Longest sudo password accepted, characters. */
export const SUDO_PASSWORD_MAX_CHARS = 256;

/** §9 "Client restarts 10 s after confirm": the console sends restartItself this long after the confirm, ms. */
export const CLIENT_RESTART_DELAY_MS = 10_000;
