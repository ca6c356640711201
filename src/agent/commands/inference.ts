/**
 * Handlers of the inference feature's device commands (src/protocol/inference.ts; spec §4 "Starting an
 * inference connection", §7 get-stream-engine-port; alarm-new is the alarms feature's, ./alarms.ts): the work
 * is the inference part's (src/agent/inference/).
 */
import type { Handlers } from './registry';

type InferenceProcess =
  | 'inference-check'
  | 'inference-negotiate'
  | 'inference-metadata'
  | 'inference-stop'
  | 'inference-jobs'
  | 'get-stream-engine-port';

export const inferenceHandlers = {
  'inference-check': async (options, ctx) => ctx.inference.check(options),
  'inference-negotiate': async ({ callId, sdp, engine }, ctx) => ({
    callId,
    sdp: { type: 'answer' as const, sdp: await ctx.inference.negotiate(callId, sdp.sdp, ctx.linkId, engine) },
  }),
  'inference-metadata': async ({ callId, job_id, sdp }, ctx) => ({
    callId,
    sdp: { type: 'answer' as const, sdp: await ctx.inference.metadata(callId, job_id, sdp.sdp, ctx.linkId) },
  }),
  'inference-stop': async ({ job_id }, ctx) => ({ stopped: ctx.inference.stop(job_id) }),
  'inference-jobs': async (_payload, ctx) => ({ jobs: ctx.inference.jobs() }),
  'get-stream-engine-port': async ({ streamId }, ctx) => ({
    streamId,
    port: ctx.inference.streamEnginePort(streamId),
  }),
} satisfies Pick<Handlers, InferenceProcess>;
