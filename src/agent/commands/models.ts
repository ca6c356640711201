/**
 * Handlers of the models feature's device commands (src/protocol/models.ts; issue 9 "Deploy a model version to
 * a device"): models-deploy (progress as link `progress` messages, ModelDownload), models-cancel-download,
 * models-installed, models-remove. The work is the models part's (src/agent/models/); refusals are its
 * CommandErrors with DEPLOY_ERROR_CODES. get-download-upload-status lists the downloads (software handlers).
 */
import type { Handlers } from './registry';

type ModelProcess = 'models-deploy' | 'models-cancel-download' | 'models-installed' | 'models-remove';

export const modelHandlers = {
  'models-deploy': async ({ deployment_id }, ctx, scope) => {
    const installed = await ctx.models.deploy(deployment_id, (d) => scope.progress(d));
    return {
      deployment_id,
      model_id: installed.model_id,
      version: installed.version,
      sha256: installed.sha256,
      installed: true as const,
    };
  },
  'models-cancel-download': async ({ deployment_id }, ctx) => ({
    canceled: ctx.models.cancel(deployment_id),
  }),
  'models-installed': async (_payload, ctx) => ({ models: await ctx.models.installed() }),
  'models-remove': async ({ model_id, version }, ctx) => ({
    removed: await ctx.models.remove(model_id, version),
  }),
} satisfies Pick<Handlers, ModelProcess>;
