/**
 * Handlers of the power feature's device commands (src/protocol/power.ts; §7 "Client and settings":
 * restartItself, restartDevice, shutDownDevice, force-shut-down; "Sudo": check-sudo-saved, check-sudo,
 * remove-saved-sudo). The work is the power part's (src/agent/power/); refusals are its CommandErrors with
 * POWER_ERROR_CODES and the §5/§8 texts (invalid_password "Invalid Password.", sudo_required "Sudo privileged
 * is required", force_failed "Unable to force shut down the device", power_disabled, power_failed).
 */
import type { Handlers } from './registry';

type PowerProcess =
  | 'check-sudo-saved'
  | 'check-sudo'
  | 'remove-saved-sudo'
  | 'restartDevice'
  | 'shutDownDevice'
  | 'force-shut-down'
  | 'restartItself';

export const powerHandlers = {
  'check-sudo-saved': async (_payload, ctx) => ctx.power.sudoStatus(),
  'check-sudo': async ({ password, save }, ctx) => ctx.power.checkSudo(password, save),
  'remove-saved-sudo': async (_payload, ctx) => ({ removed: await ctx.power.removeSaved() }),
  restartDevice: async ({ password }, ctx) => ctx.power.act('reboot', password),
  shutDownDevice: async ({ password }, ctx) => ctx.power.act('shutdown', password),
  'force-shut-down': async ({ password }, ctx) => ctx.power.act('forceShutdown', password),
  restartItself: async (_payload, ctx) => ctx.power.restartClient(),
} satisfies Pick<Handlers, PowerProcess>;
