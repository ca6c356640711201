/**
 * The inference feature's peer connections (issue 10; spec §4 "Starting an inference connection" step 5, §8
 * ICE rules, §9 ICE gathering wait): each is an RTCPeerConnection with one data channel, offered by the
 * browser and answered by the device over its link (non-trickle, like streams).
 *
 * - `openStartChannel`: the negotiation connection of a start (inference-negotiate). It obeys the start
 *   machine's `channel.request` commands (sends ControlRequest) and reports `channel.open`,
 *   `channel.message` (heartbeats and results, checked with zod), `channel.failed` (the peer connection
 *   failed, or the offer was refused) and `channel.closed`. Its clean-up closes the connection (the machine
 *   leaves `negotiating` after start-inference: §4 "then close the peer connection").
 * - `openMetadataChannel`: a running job's detections (inference-metadata), unordered without retransmits
 *   (a late detection is worth nothing); each message is parsed and handed over with its arrival time.
 * An ICE candidate error 401 clears the ICE servers and retries every 10 s; 701 is only logged (§8).
 */
import type { ChannelCommand, ChannelEvent } from '../../../../machines/inference/inferenceStart.machine';
import { prepFailureText } from '../../../../machines/inference/startContext';
import { ICE_GATHERING_WAIT_MS } from '../../../protocol/constants';
import { ControlMessage, InferenceMetadata, type ControlRequest } from '../../../protocol/inference';
import type { IceServer } from '../../../protocol/rest';
import type { CallDevice } from '../../platform/peerLink';

export interface ChannelDeps {
  callDevice: CallDevice;
  getIceServers: () => IceServer[];
  /** ICE transport policy (server's ICE_TRANSPORT_POLICY, issue 15); default 'all'. */
  getIceTransportPolicy?: () => RTCIceTransportPolicy;
}

/** §8: after an ICE 401 the servers are cleared and the connection tried again every 10 s. */
export const ICE_RETRY_MS = 10_000;
/**
 * A start connection whose channel is not open this long after the device's answer is offered again, with a new
 * peer connection (the device drops the old one for the same call id), at most START_OPEN_RETRIES times. Seen
 * on a loaded machine: now and then a start's data channel never opened while the device link worked, and the
 * start failed after its silence limit with "No news from the device".
 */
export const START_OPEN_RETRY_MS = 8_000;
export const START_OPEN_RETRIES = 2;

/** Waits for ICE gathering: complete, `waitMs`, or 30 ms after the first host candidate without servers. */
function gathered(pc: RTCPeerConnection, waitMs: number, hostOnly: boolean): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    let settle: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      clearTimeout(timer);
      clearTimeout(settle);
      pc.removeEventListener('icegatheringstatechange', onChange);
      pc.removeEventListener('icecandidate', onCandidate);
      resolve();
    };
    const onChange = () => pc.iceGatheringState === 'complete' && done();
    const onCandidate = (e: RTCPeerConnectionIceEvent) => {
      if (hostOnly && e.candidate && settle === undefined) settle = setTimeout(done, 30);
    };
    const timer = setTimeout(done, waitMs);
    pc.addEventListener('icegatheringstatechange', onChange);
    pc.addEventListener('icecandidate', onCandidate);
  });
}

/** Offers one data channel to the device with `answer` (a device command); returns pc and channel. */
async function offerChannel(
  deps: ChannelDeps,
  label: string,
  init: RTCDataChannelInit,
  answer: (sdp: string) => Promise<string>,
  iceServers: IceServer[],
): Promise<{ pc: RTCPeerConnection; dc: RTCDataChannel }> {
  const iceTransportPolicy = deps.getIceTransportPolicy?.() ?? 'all';
  const pc = new RTCPeerConnection({ iceServers, iceTransportPolicy, iceCandidatePoolSize: 10 });
  const dc = pc.createDataChannel(label, init);
  try {
    await pc.setLocalDescription(await pc.createOffer());
    await gathered(pc, ICE_GATHERING_WAIT_MS, iceServers.length === 0);
    const sdp = await answer(pc.localDescription!.sdp);
    await pc.setRemoteDescription({ type: 'answer', sdp });
    return { pc, dc };
  } catch (err) {
    pc.close();
    throw err;
  }
}

/** Watches ICE candidate errors (§8): 401 → `onUnauthorized`; 701 only logged. */
function watchIceErrors(pc: RTCPeerConnection, onUnauthorized: () => void): void {
  pc.addEventListener('icecandidateerror', (e) => {
    const code = (e as RTCPeerConnectionIceErrorEvent).errorCode;
    if (code === 401) onUnauthorized();
    else if (code === 701) console.info('inference: ICE server unreachable (701)');
  });
}

/** The start negotiation's connection (see the module comment). Returns its clean-up. */
export function openStartChannel(
  deps: ChannelDeps,
  input: { deviceId: string; callId: string; engine?: string },
  sendBack: (event: ChannelEvent) => void,
  receive: (listener: (command: ChannelCommand) => void) => void,
): () => void {
  let closed = false;
  let pc: RTCPeerConnection | null = null;
  let dc: RTCDataChannel | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let openTimer: ReturnType<typeof setTimeout> | undefined;
  const pending: ControlRequest[] = [];

  const send = (req: ControlRequest) => {
    if (dc?.readyState === 'open') dc.send(JSON.stringify(req));
    else pending.push(req);
  };
  receive((c) =>
    send({
      type: 'request',
      callId: c.callId,
      step: c.step,
      options: c.options,
      ...(c.with ? { with: c.with } : {}),
    }),
  );

  const connect = async (iceServers: IceServer[], attempt = 0) => {
    try {
      const opened = await offerChannel(
        deps,
        'inference-start',
        { ordered: true },
        async (sdp) =>
          (
            await deps.callDevice(input.deviceId, 'inference-negotiate', {
              callId: input.callId,
              sdp: { type: 'offer', sdp },
              ...(input.engine ? { engine: input.engine } : {}),
            })
          ).sdp.sdp,
        iceServers,
      );
      if (closed) return opened.pc.close();
      const myPc = opened.pc;
      const myDc = opened.dc;
      pc = myPc;
      dc = myDc;
      // Events of a connection this one replaced (a retry) are not this start's.
      const current = () => !closed && pc === myPc;
      watchIceErrors(myPc, () => {
        if (!current()) return;
        // §8: a 401 clears the servers and tries again every 10 s.
        clearTimeout(openTimer);
        pc = null;
        dc = null;
        myPc.close();
        retry = setTimeout(() => void connect([]), ICE_RETRY_MS);
      });
      myPc.addEventListener('connectionstatechange', () => {
        if (current() && myPc.connectionState === 'failed')
          sendBack({ type: 'channel.failed', error: 'The connection to the device failed.' });
      });
      let reported = false;
      const onOpen = () => {
        if (!current() || reported) return;
        reported = true;
        clearTimeout(openTimer);
        sendBack({ type: 'channel.open' });
        for (const req of pending.splice(0)) myDc.send(JSON.stringify(req));
      };
      myDc.addEventListener('open', onOpen);
      myDc.addEventListener('message', (e) => {
        if (!current()) return;
        const parsed = ControlMessage.safeParse(safeJson(String((e as MessageEvent).data)));
        if (parsed.success && parsed.data.callId === input.callId)
          sendBack({ type: 'channel.message', message: parsed.data });
      });
      myDc.addEventListener('close', () => {
        if (current()) sendBack({ type: 'channel.closed' });
      });
      // The channel may have opened before these listeners were attached: its 'open' event can be dispatched
      // before setRemoteDescription's promise settles (a fast device, a busy page). Then it was missed: the
      // start waited on a channel that was open and was never offered again (seen on the §4 step 7 restart).
      if (myDc.readyState === 'open') onOpen();
      else if (attempt < START_OPEN_RETRIES) {
        openTimer = setTimeout(() => {
          if (!current() || myDc.readyState === 'open') return;
          console.warn(
            `inference: start channel not open after ${START_OPEN_RETRY_MS} ms ` +
              `(ice ${myPc.iceConnectionState}, connection ${myPc.connectionState}); offering again`,
          );
          pc = null;
          dc = null;
          myPc.close();
          void connect(iceServers, attempt + 1);
        }, START_OPEN_RETRY_MS);
      }
    } catch (err) {
      if (!closed)
        // A device that went away (link closed, time-out) reads as §8 "Could not get an answer" (issue 15).
        sendBack({ type: 'channel.failed', error: prepFailureText(err) });
    }
  };
  void connect(deps.getIceServers());
  return () => {
    closed = true;
    clearTimeout(retry);
    clearTimeout(openTimer);
    try {
      dc?.close();
    } catch {
      // closed
    }
    pc?.close();
  };
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** A running job's metadata connection: `onFrame` gets each frame's detections with its arrival time. */
export function openMetadataChannel(
  deps: ChannelDeps,
  input: { deviceId: string; jobId: string; callId: string },
  onFrame: (meta: InferenceMetadata, arrival: number) => void,
  onEnd: (error: string) => void,
): () => void {
  let closed = false;
  let pc: RTCPeerConnection | null = null;
  let openTimer: ReturnType<typeof setTimeout> | undefined;
  // Like the start connection: a channel not open START_OPEN_RETRY_MS after the answer is offered again.
  const connect = (attempt: number) =>
    void offerChannel(
      deps,
      'inference-metadata',
      { ordered: false, maxRetransmits: 0 },
      async (sdp) =>
        (
          await deps.callDevice(input.deviceId, 'inference-metadata', {
            callId: input.callId,
            job_id: input.jobId,
            sdp: { type: 'offer', sdp },
          })
        ).sdp.sdp,
      deps.getIceServers(),
    ).then(
      (opened) => {
        if (closed) return opened.pc.close();
        const myPc = opened.pc;
        pc = myPc;
        const current = () => !closed && pc === myPc;
        opened.dc.addEventListener('open', () => clearTimeout(openTimer));
        opened.dc.addEventListener('message', (e) => {
          if (!current()) return;
          const arrival = performance.now();
          const parsed = InferenceMetadata.safeParse(safeJson(String((e as MessageEvent).data)));
          if (parsed.success) onFrame(parsed.data, arrival);
        });
        opened.dc.addEventListener('close', () => current() && onEnd('The detections stopped.'));
        myPc.addEventListener('connectionstatechange', () => {
          if (current() && myPc.connectionState === 'failed') onEnd('The detections connection failed.');
        });
        if (attempt < START_OPEN_RETRIES && opened.dc.readyState !== 'open') {
          openTimer = setTimeout(() => {
            if (!current() || opened.dc.readyState === 'open') return;
            console.warn(
              `inference: detections channel not open after ${START_OPEN_RETRY_MS} ms ` +
                `(ice ${myPc.iceConnectionState}, connection ${myPc.connectionState}); offering again`,
            );
            pc = null;
            myPc.close();
            connect(attempt + 1);
          }, START_OPEN_RETRY_MS);
        }
      },
      (err: unknown) => !closed && onEnd(err instanceof Error ? err.message : String(err)),
    );
  connect(0);
  return () => {
    closed = true;
    clearTimeout(openTimer);
    pc?.close();
  };
}
