/** Signalling messages for the tests: as peerjs 1.5.5 sends them, and every hostile variant issue 7 lists. */
import { MAX_SIGNALLING_MESSAGE_BYTES } from '../../../src/protocol/peerjsMessages';

const SDP_OFFER = { type: 'offer', sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n' };
const SDP_ANSWER = { type: 'answer', sdp: 'v=0\r\n' };

/** Messages as peerjs 1.5.5 sends them. */
export const wellFormed = {
  offer: (dst: string, connectionId = 'dc_abc123') => ({
    type: 'OFFER',
    dst,
    payload: {
      sdp: SDP_OFFER,
      type: 'data',
      connectionId,
      label: connectionId,
      reliable: true,
      serialization: 'json',
    },
  }),
  answer: (dst: string, connectionId = 'dc_abc123') => ({
    type: 'ANSWER',
    dst,
    payload: { sdp: SDP_ANSWER, type: 'data', connectionId },
  }),
  candidate: (dst: string, connectionId = 'dc_abc123') => ({
    type: 'CANDIDATE',
    dst,
    payload: {
      candidate: {
        candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host',
        sdpMid: '0',
        sdpMLineIndex: 0,
        usernameFragment: 'abcd',
      },
      type: 'data',
      connectionId,
    },
  }),
  leave: (dst: string) => ({ type: 'LEAVE', dst }),
  heartbeat: () => ({ type: 'HEARTBEAT' }),
};

/** Everything issue 7 and its review listed, addressed to `dst`: none of it may be relayed. */
export function hostileMessages(dst: string): unknown[] {
  const offer = wellFormed.offer(dst);
  return [
    { type: 'OFFER', dst }, // the message: no payload
    { type: 'OFFER', dst, payload: { ...offer.payload, serialization: undefined } }, // no serialization
    { type: 'OFFER', dst, payload: { ...offer.payload, serialization: 'nope' } }, // unknown serialization
    { type: 'OFFER', dst, payload: { ...offer.payload, serialization: 42 } },
    { type: 'OFFER', dst, payload: { ...offer.payload, type: 'carrier-pigeon' } },
    { type: 'OFFER', dst, payload: { ...offer.payload, connectionId: { $ne: 1 } } },
    { type: 'OFFER', dst, payload: { ...offer.payload, originator: true } }, // would make it dial back
    { type: 'OFFER', dst, payload: { ...offer.payload, sdp: 'v=0' } },
    { type: 'OFFER', dst, payload: { ...offer.payload, sdp: { type: 'answer', sdp: 'v=0' } } },
    { type: 'OFFER', dst, payload: null },
    { type: 'OFFER', dst, payload: 'x' },
    { type: 'OFFER', dst, payload: [] },
    { type: 'ANSWER', dst },
    { type: 'ANSWER', dst, payload: { type: 'data', connectionId: 'dc_x' } },
    { type: 'ANSWER', dst, payload: { type: 'data', connectionId: 'dc_x', sdp: null } },
    { type: 'CANDIDATE', dst },
    { type: 'CANDIDATE', dst, payload: { type: 'data', connectionId: 'dc_x' } },
    { type: 'CANDIDATE', dst, payload: { type: 'data', connectionId: 'dc_x', candidate: 'x' } },
    { type: 'CANDIDATE', dst, payload: { type: 'data', connectionId: 7, candidate: { candidate: 'x' } } },
    { type: 'LEAVE' }, // would unregister the sender from the realm without closing its socket
    { type: 'LEAVE', dst: 42 },
    { type: 'EXPIRE', dst }, // only the server sends EXPIRE
    { type: 'OPEN', dst },
    { type: 'ERROR', dst },
    { type: 'ERROR', dst, payload: { msg: 'forged' } },
    { type: 'ID-TAKEN', dst },
    { type: 'HEARTBEAT-ish', dst },
    { type: 42, dst },
    { dst },
    { type: 'OFFER', dst: { id: dst }, payload: offer.payload },
    { type: 'OFFER', dst: 'x'.repeat(129), payload: offer.payload },
    { ...offer, payload: { ...offer.payload, label: 'x'.repeat(MAX_SIGNALLING_MESSAGE_BYTES) } }, // huge
    { ...offer, src: 'web-someoneelse00000' }, // spoofed sender
    null,
    42,
    'just a string',
    [offer],
    '{"type":"OFFER","dst":', // invalid JSON (sent as text as is)
    'not json at all',
    '',
  ];
}
