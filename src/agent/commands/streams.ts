/**
 * Stream commands (§7 "Streams and cameras", §4 "Camera use"): send-sdp, stop-stream, pause-stream,
 * resume-stream, check-camera-usage, force-kill-stream.
 */
import { requireCamera } from './cameras';
import type { Handlers } from './registry';

type StreamProcess =
  'send-sdp' | 'stop-stream' | 'pause-stream' | 'resume-stream' | 'check-camera-usage' | 'force-kill-stream';

export const streamHandlers = {
  'send-sdp': async ({ camera_id, callId, sdp, resolution }, ctx) => {
    const answer = await ctx.streams.start({
      callId,
      cameraId: camera_id,
      offerSdp: sdp.sdp,
      resolution,
      browserId: ctx.browserId,
      linkId: ctx.linkId,
    });
    return { callId, sdp: answer.sdp, resolution: answer.resolution };
  },

  'stop-stream': async ({ callId }, ctx) => ({ stopped: ctx.streams.stop(callId, ctx.browserId) }),

  'pause-stream': async ({ callId }, ctx) => ({ paused: await ctx.streams.pause(callId, ctx.browserId) }),

  'resume-stream': async ({ callId }, ctx) => ({ resumed: await ctx.streams.resume(callId, ctx.browserId) }),

  'check-camera-usage': async ({ camera_id }, ctx) => {
    requireCamera(ctx, camera_id);
    const processes = ctx.streams
      .streamsOfCamera(camera_id, ctx.browserId)
      .map((s) => ({ id: s.callId, kind: 'stream' as const }));
    return { in_use: processes.length > 0, processes };
  },

  /** §4: kill the other processes using the camera; result true when the camera is then free of them. */
  'force-kill-stream': async ({ camera_id }, ctx) => {
    requireCamera(ctx, camera_id);
    ctx.streams.killCamera(camera_id, ctx.browserId);
    return { result: ctx.streams.streamsOfCamera(camera_id, ctx.browserId).length === 0 };
  },
} satisfies Pick<Handlers, StreamProcess>;
