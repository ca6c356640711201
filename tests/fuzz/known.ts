/**
 * Defects the fuzz harness found that are not fixed yet, each with the failures it explains. A run reports
 * them (failures carry `known: id`) but the bounded sample in `npm test` does not fail on them; anything
 * else fails it. Remove an entry when its fix lands: the harness then holds the fix.
 */
import type { Failure } from './report';

export interface KnownDefect {
  id: string;
  /** Where it lives and what happens. */
  note: string;
  match(f: Failure): boolean;
}

export const KNOWN_DEFECTS: readonly KnownDefect[] = [
  {
    id: 'agent-text-frame',
    note:
      'src/agent/link/session.ts: a text frame on the data channel (PeerJS sends binary) reaches peerjs ' +
      'Json._handleDataMessage, whose TextDecoder.decode(string) throws TypeError out of the wrtc event ' +
      'handler: an uncaught exception in the agent per frame, and no reply (not even malformed_message). ' +
      'installSafeParser replaces `parse` but not the decoding before it.',
    match: (f) =>
      (f.area === 'commands' && f.label.startsWith('text-frame:') && /^no reply within/.test(f.problem)) ||
      (f.area === 'liveness' && f.problem.includes('"list" argument must be an instance of')),
  },
  {
    id: 'agent-still-flood',
    note:
      'src/agent/commands/cameras.ts (getOneFrameFromPhysicalCamera): 500 requests at once on one link are ' +
      'served one still after another (~10–20 ms each on this machine) with no limit or busy reply: the ' +
      'last replies come after 5–10 s, and a ping on another link of the same device waits as long (the ' +
      "console's §9 health ping would time out: the device looks dead to its owner).",
    match: (f) =>
      f.area === 'commands' &&
      f.label.startsWith('flood:getOneFrameFromPhysicalCamera') &&
      /^(reply after|ping answered after|no ping reply|no reply within)/.test(f.problem),
  },
  {
    id: 'server-431-shape',
    note:
      'src/server/app.ts: a request whose URL or headers pass 16 KB is refused by Node (431) and answered by ' +
      "Fastify's default client-error handler with { error, message, statusCode } — no `code`.",
    match: (f) => f.area === 'rest' && /^answered 431 without \{ code, message \}/.test(f.problem),
  },
];

/** The known defect a failure belongs to, or undefined. */
export const knownDefectOf = (f: Failure): string | undefined => KNOWN_DEFECTS.find((d) => d.match(f))?.id;
