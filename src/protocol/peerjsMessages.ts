/**
 * The PeerJS signalling messages (peerjs 1.5.5 client ↔ `peer` 1.0.2 server) and the limits the server
 * relays them under (issue 7: one malformed OFFER used to wedge a device's signalling socket).
 *
 * A client sends: OFFER, ANSWER, CANDIDATE (each to a `dst` peer, with a payload naming the connection),
 * LEAVE (to a `dst`; peerjs 1.5.5 no longer sends it, older clients did; agents use a LEAVE to themselves as
 * a signalling watchdog probe) and HEARTBEAT (every 5 s). The server sets `src` itself; EXPIRE, OPEN, ERROR,
 * ID-TAKEN and INVALID-KEY only ever come from the server.
 *
 * Payload objects are loose: fields peerjs adds in later versions pass through; the fields peerjs reads
 * are checked for type (and bounded in length where they are strings). Shared by the server (what it relays)
 * and the agent (what it lets its Peer see).
 */
import { z } from 'zod';

/** Longest signalling message relayed, in bytes of JSON text. An SDP offer for one data channel is ~1–3 KB,
 * a media offer with many codecs and simulcast under ~20 KB. */
export const MAX_SIGNALLING_MESSAGE_BYTES = 64 * 1024;

/**
 * Per-peer token buckets on the server. `capacity` is the burst, `perSecond` the sustained rate.
 *  - all messages: an honest peer sends a HEARTBEAT every 5 s and, per data connection it opens or accepts,
 *    one OFFER/ANSWER and typically ≤ 10 CANDIDATEs; the console's pool holds ≤ 50 device links, so the
 *    worst honest burst (every link reopened at once) is ~550 messages. 1 000 is twice that; 100/s
 *    sustained is ten full negotiations a second.
 *  - OFFERs alone: each one makes the receiving agent build an RTCPeerConnection, so they are the costly
 *    ones: 100 (two full pools) at once, 5/s sustained.
 */
export const SIGNALLING_RATE = { capacity: 1_000, perSecond: 100 } as const;
export const SIGNALLING_OFFER_RATE = { capacity: 100, perSecond: 5 } as const;

/** Peer ids as the signalling upgrade accepts them (1–128 characters). */
export const PeerId = z.string().min(1).max(128);
/** peerjs: 'dc_' / 'mc_' + a random token; clients may choose their own. */
export const ConnectionId = z.string().min(1).max(128);

/** RTCSessionDescriptionInit as JSON. */
export const SessionDescription = z.looseObject({
  type: z.enum(['offer', 'answer', 'pranswer', 'rollback']),
  sdp: z.string().max(MAX_SIGNALLING_MESSAGE_BYTES),
});

/** RTCIceCandidateInit as JSON (peerjs never sends the empty end-of-candidates one). */
export const IceCandidate = z.looseObject({
  candidate: z.string().max(4_096),
  sdpMid: z.string().max(256).nullish(),
  sdpMLineIndex: z.number().int().min(0).max(65_535).nullish(),
  usernameFragment: z.string().max(256).nullish(),
});

/**
 * Serializer names peerjs 1.5.5 has: its built-ins and the MsgPack one (`peerjs/serializer.msgpack`). A
 * receiving Peer without a class for the name throws (`new this._serializers[name]`), so no other is relayed.
 */
export const Serialization = z.enum(['raw', 'json', 'binary', 'binary-utf8', 'default', 'MsgPack']);

/**
 * peerjs hands an OFFER's payload to the new connection as its options: `originator: true` there would make
 * the receiver open a channel and offer back, as if it had dialled. peerjs never sends it.
 */
const NotOriginator = { originator: z.undefined().optional() };

/** OFFER payload for a data connection (Peer.connect). */
export const DataOfferPayload = z.looseObject({
  ...NotOriginator,
  type: z.literal('data'),
  connectionId: ConnectionId,
  sdp: SessionDescription.extend({ type: z.literal('offer') }),
  serialization: Serialization,
  label: z.string().max(256).optional(),
  reliable: z.boolean().optional(),
  metadata: z.unknown().optional(),
  browser: z.string().max(64).optional(),
});

/** OFFER payload for a media connection (Peer.call). */
export const MediaOfferPayload = z.looseObject({
  ...NotOriginator,
  type: z.literal('media'),
  connectionId: ConnectionId,
  sdp: SessionDescription.extend({ type: z.literal('offer') }),
  metadata: z.unknown().optional(),
  browser: z.string().max(64).optional(),
});

export const OfferPayload = z.discriminatedUnion('type', [DataOfferPayload, MediaOfferPayload]);

export const AnswerPayload = z.looseObject({
  type: z.enum(['data', 'media']),
  connectionId: ConnectionId,
  sdp: SessionDescription.extend({ type: z.enum(['answer', 'pranswer']) }),
  browser: z.string().max(64).optional(),
});

export const CandidatePayload = z.looseObject({
  type: z.enum(['data', 'media']),
  connectionId: ConnectionId,
  candidate: IceCandidate,
});

export const LeavePayload = z.looseObject({ connectionId: ConnectionId.optional() });

/** `src` may be given only as the sender's own id (the server overwrites it anyway). */
const src = PeerId.optional();

/** What a client may send to the signalling server. */
export const ClientSignallingMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('OFFER'), src, dst: PeerId, payload: OfferPayload }),
  z.object({ type: z.literal('ANSWER'), src, dst: PeerId, payload: AnswerPayload }),
  z.object({ type: z.literal('CANDIDATE'), src, dst: PeerId, payload: CandidatePayload }),
  z.object({ type: z.literal('LEAVE'), src, dst: PeerId, payload: LeavePayload.optional() }),
  z.object({ type: z.literal('HEARTBEAT') }),
]);
export type ClientSignallingMessage = z.infer<typeof ClientSignallingMessage>;

/** A relayed message as a peer receives it: `src` is the sender, set by the server. */
export const RelayedSignallingMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('OFFER'), src: PeerId, dst: PeerId.optional(), payload: OfferPayload }),
  z.object({ type: z.literal('ANSWER'), src: PeerId, dst: PeerId.optional(), payload: AnswerPayload }),
  z.object({ type: z.literal('CANDIDATE'), src: PeerId, dst: PeerId.optional(), payload: CandidatePayload }),
  z.object({
    type: z.literal('LEAVE'),
    src: PeerId,
    dst: PeerId.optional(),
    payload: LeavePayload.optional(),
  }),
  z.object({ type: z.literal('EXPIRE'), src: PeerId, dst: PeerId.optional() }),
]);
export type RelayedSignallingMessage = z.infer<typeof RelayedSignallingMessage>;

/** Messages the signalling server itself sends a peer. */
export const ServerSignallingMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('OPEN') }),
  z.object({ type: z.literal('ERROR'), payload: z.looseObject({ msg: z.string().max(1_024) }) }),
  z.object({
    type: z.literal('ID-TAKEN'),
    payload: z.looseObject({ msg: z.string().max(1_024) }).optional(),
  }),
  z.object({
    type: z.literal('INVALID-KEY'),
    payload: z.looseObject({ msg: z.string().max(1_024) }).optional(),
  }),
]);
export type ServerSignallingMessage = z.infer<typeof ServerSignallingMessage>;

/** Connection ids of the agent's signalling watchdog probes (a LEAVE the agent addresses to itself). */
export const WATCHDOG_PROBE_PREFIX = 'watchdog-';
