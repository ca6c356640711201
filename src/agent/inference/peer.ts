/**
 * Data-channel-only peer connections of the inference feature (§4 step 5 "open a peer connection with a data
 * channel"; the metadata connection of a running job): the browser offers one data channel, the agent answers
 * (non-trickle, ICE gathering bounded by ICE_GATHERING_WAIT_MS, like stream answers) and hands the channel over
 * when it arrives. wrtc's send on a closing channel is guarded in ../wrtc.ts; `safeSend` never throws.
 */
import { ICE_GATHERING_WAIT_MS, LINK_ERROR_CODES } from '../../protocol';
import type { IceServer } from '../../protocol';
import { CommandError } from '../commands/errors';
import { errorMessage } from '../log';
import { waitForIceGathering } from '../streams/manager';
import { wrtc } from '../wrtc';

export interface ChannelPeer {
  pc: RTCPeerConnection;
  /** The browser's channel, once it arrived. */
  channel: Promise<RTCDataChannel>;
  close(): void;
}

/** Why an offer cannot be answered: it must carry a data channel section, ICE credentials, a fingerprint. */
export function channelOfferProblem(sdp: string): string | null {
  const lines = sdp.split(/\r?\n/);
  if (!lines.some((l) => l.startsWith('m=application'))) return 'The offer has no data channel';
  if (!lines.some((l) => l.startsWith('a=ice-ufrag:')) || !lines.some((l) => l.startsWith('a=ice-pwd:')))
    return 'The offer has no ICE credentials';
  if (!lines.some((l) => l.startsWith('a=fingerprint:'))) return 'The offer has no DTLS fingerprint';
  return null;
}

/**
 * Answers a data-channel offer. Resolves with the answer SDP and the peer; `onEnd` runs once when the peer
 * connection fails or closes. Throws CommandError('inferenceEngineError') when the offer cannot be answered.
 */
export async function answerChannelOffer(
  offerSdp: string,
  iceServers: IceServer[],
  onEnd: (reason: 'failed' | 'closed') => void,
  /** Told each connection state change, and how the answer went (diagnosis of connections that never open). */
  trace?: (message: string) => void,
  /** ICE transport policy (server's ICE_TRANSPORT_POLICY, issue 15); default 'all'. */
  iceTransportPolicy: 'all' | 'relay' = 'all',
): Promise<{ sdp: string; peer: ChannelPeer }> {
  const problem = channelOfferProblem(offerSdp);
  if (problem) throw new CommandError(LINK_ERROR_CODES.inferenceEngineError, problem);
  const pc = new wrtc.RTCPeerConnection({ iceServers, iceTransportPolicy }) as unknown as RTCPeerConnection;
  let ended = false;
  const close = () => {
    try {
      if (pc.signalingState !== 'closed') pc.close();
    } catch {
      // closed already
    }
  };
  const end = (reason: 'failed' | 'closed') => {
    if (ended) return;
    ended = true;
    close();
    onEnd(reason);
  };
  const channel = new Promise<RTCDataChannel>((resolve) =>
    pc.addEventListener('datachannel', (e) => resolve((e as RTCDataChannelEvent).channel)),
  );
  const began = performance.now();
  const since = () => `${Math.round(performance.now() - began)} ms`;
  pc.addEventListener('connectionstatechange', () => {
    trace?.(`connection ${pc.connectionState} (ice ${pc.iceConnectionState}) after ${since()}`);
    if (pc.connectionState === 'failed') end('failed');
    else if (pc.connectionState === 'closed') end('closed');
  });
  try {
    await pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
    await pc.setLocalDescription(await pc.createAnswer());
    await waitForIceGathering(pc, ICE_GATHERING_WAIT_MS, iceServers.length === 0);
    const sdp = pc.localDescription?.sdp;
    if (!sdp) throw new Error('No local description after ICE gathering');
    trace?.(
      `answered in ${since()}; offer candidates ${candidatesOf(offerSdp)}; answer candidates ${candidatesOf(sdp)}`,
    );
    return { sdp, peer: { pc, channel, close: () => end('closed') } };
  } catch (err) {
    ended = true;
    close();
    throw new CommandError(LINK_ERROR_CODES.inferenceEngineError, `Could not answer: ${errorMessage(err)}`);
  }
}

/**
 * The SDP with every DTLS fingerprint's first byte inverted (sim fault `inference-connection`): the peer's
 * certificate no longer matches, so the other side's DTLS handshake, and its peer connection, fail.
 */
export function withWrongFingerprint(sdp: string): string {
  return sdp.replace(
    /^(a=fingerprint:\S+ )([0-9A-Fa-f]{2})/gm,
    (_m, head: string, byte: string) =>
      `${head}${(255 - parseInt(byte, 16)).toString(16).padStart(2, '0').toUpperCase()}`,
  );
}

/** "udp 192.0.2.2, udp fd00::2" for the SDP's candidates (logs). */
function candidatesOf(sdp: string): string {
  const found = [...sdp.matchAll(/^a=candidate:\S+ \d+ (\S+) \d+ (\S+) \d+ typ (\S+)/gm)].map(
    (m) => `${m[1]!.toLowerCase()} ${m[2]}${m[3] === 'host' ? '' : ` ${m[3]}`}`,
  );
  return found.length ? found.join(', ') : 'none';
}

/** Sends text on a channel if it is open; false when it is not (never throws). */
export function safeSend(channel: RTCDataChannel, text: string): boolean {
  if (channel.readyState !== 'open') return false;
  try {
    channel.send(text);
    return true;
  } catch {
    return false;
  }
}
