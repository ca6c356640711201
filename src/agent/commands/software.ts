/**
 * Handlers of the software feature's device commands (src/protocol/software.ts; issue 16 §1 "Software"; §7
 * check-version-update, check-stream-engine-update, check-companion-update, check-companion-restart,
 * get-download-upload-status; §4 client update: update-client, restart-client-update). The work is the
 * software part's (src/agent/software/); refusals are its CommandErrors with UPDATE_ERROR_CODES
 * (notEnoughStorage, downloadError, other). get-client-version stays with the health commands.
 */
import type { Handlers } from './registry';

type SoftwareProcess =
  | 'check-version-update'
  | 'check-stream-engine-update'
  | 'check-companion-update'
  | 'check-companion-restart'
  | 'get-download-upload-status'
  | 'update-client'
  | 'restart-client-update';

export const softwareHandlers = {
  'check-version-update': async (_payload, ctx) => ctx.software.checkVersion(),
  'check-stream-engine-update': async (_payload, ctx) => ctx.software.checkComponent('stream-engine'),
  'check-companion-update': async (_payload, ctx) => ctx.software.checkComponent('companion-update'),
  'check-companion-restart': async (_payload, ctx) => ctx.software.checkComponent('companion-restart'),
  'get-download-upload-status': async (_payload, ctx) => ({
    ...ctx.software.status(),
    downloads: ctx.models.downloads(),
  }),
  'update-client': async ({ version }, ctx, scope) => {
    const done = await ctx.software.update(version, (status) => scope.progress(status));
    return { version: done.version, installed: true, restart_required: true };
  },
  'restart-client-update': async (_payload, ctx) => ctx.software.restart(),
} satisfies Pick<Handlers, SoftwareProcess>;
