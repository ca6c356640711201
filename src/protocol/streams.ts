/**
 * Stream commands (spec §3 Stream, §7 send-sdp; stop/pause/resume-stream are ours — README "Device link").
 * The browser creates one RTCPeerConnection per stream and negotiates it over the device's data channel.
 */
import { z } from 'zod';
import { CameraRef, ResolutionOption } from './cameras';
import { defineCommands } from './command';

export { STREAM_QUOTA_ERROR, parseStreamQuotaMessage, streamQuotaMessage } from './streamQuota';

const SdpOffer = z.object({ type: z.literal('offer'), sdp: z.string().min(1).max(200_000) });
const SdpAnswer = z.object({ type: z.literal('answer'), sdp: z.string() });
/** §3 Stream.callId: identifies one stream. */
const CallRef = z.object({ callId: z.string().min(1).max(100) });

export const streamCommands = defineCommands({
  /**
   * Start a stream: the browser's SDP offer (recvonly video) → the agent's answer with the camera as a
   * video track, keyframe first. callId identifies the stream (§3 Stream.callId). On failure the reply is an
   * error with code 'inferenceEngineError' (§7 "send-sdp (answer or inferenceEngineError)").
   */
  'send-sdp': {
    request: CameraRef.extend({
      callId: z.string().min(1).max(100),
      sdp: SdpOffer,
      resolution: ResolutionOption.optional(),
    }),
    reply: z.object({ callId: z.string(), sdp: SdpAnswer, resolution: ResolutionOption }),
  },
  /**
   * End a stream the browser no longer shows (not named by the spec; closing the peer connection alone is
   * seen by the agent only after ICE times out). Idempotent: stopped=false when no such stream.
   */
  'stop-stream': { request: CallRef, reply: z.object({ stopped: z.boolean() }) },
  /**
   * Hold a stream the browser hides (not named by the spec; issue 3 "hidden cells: the agent stops encoding
   * for them"): its peer connection stays up, the agent stops sending and encoding (and capturing, when it was
   * the camera's last viewer). paused=false when the viewer has no such stream.
   */
  'pause-stream': { request: CallRef, reply: z.object({ paused: z.boolean() }) },
  /**
   * Send a held stream again on the same peer connection (no new negotiation). resumed=false when the viewer
   * has no such stream any more (it ended while held): the browser negotiates a new one with send-sdp.
   */
  'resume-stream': { request: CallRef, reply: z.object({ resumed: z.boolean() }) },
});
