/**
 * Device-command fuzzing over one real device link (a PeerJS data connection from an owner's browser peer
 * to the agent, greeted with a server grant — as the console opens it). Every process of the command
 * registry (src/protocol/commands.ts) gets payloads built from its request schema and mutated; besides,
 * unknown processes, broken envelopes (requestId, type, process of the wrong type), non-JSON, messages of
 * the wrong kind (text frames, binary garbage), oversized messages (past PeerJS's 16 KB: sent straight on
 * the data channel) and floods of one process. Every reply must be a well-formed ReplyMessage (ok, or
 * `{ code, message }`) within 5 s; a payload the schema refuses must be refused by the agent. A link the
 * agent closes (an oversized message) is opened anew.
 */
import { ReplyMessage } from '../../src/protocol';
import { deviceCommands } from '../../src/protocol/commands';
import { buildCommandCase, FIXTURES, jsonText, PROCESSES, type CommandCase, type Wire } from './commandCases';
import type { FuzzEnv, OwnerLink } from './env';
import { baseline, jsonSchemaOf, type JsonSchema } from './generate';
import { Rng } from './random';
import { clip, pool, type Recorder } from './report';

/** How long a reply may take. */
export const REPLY_TIMEOUT_MS = 5_000;
/** How long a flood's replies are waited for (a reply after REPLY_TIMEOUT_MS is a failure, with its time). */
const FLOOD_WAIT_MS = 120_000;
const c0label = (f: { process: string; count: number }) => `flood:${f.process}x${f.count}`;

/** A reply as the harness sees it. */
type Outcome = { reply: unknown; ms: number } | { closed: true; ms: number } | { timeout: true; ms: number };

/** The browser end of the link: sends cases and matches replies by requestId. */
class FuzzLink {
  private readonly pending = new Map<string, (o: Outcome) => void>();
  closed = false;
  /** Replies nobody waited for (e.g. a second reply to one request). */
  stray = 0;

  constructor(readonly link: OwnerLink) {
    link.conn.on('data', (d) => {
      const m = d as { type?: string; requestId?: unknown };
      if (m?.type !== 'reply') return;
      const id = typeof m.requestId === 'string' ? m.requestId : '';
      const waiter = this.pending.get(id);
      if (waiter) {
        this.pending.delete(id);
        waiter({ reply: d, ms: 0 });
      } else this.stray++;
    });
    link.conn.on('close', () => {
      this.closed = true;
      for (const [id, w] of this.pending) {
        this.pending.delete(id);
        w({ closed: true, ms: 0 });
      }
    });
    link.conn.on('error', () => {});
  }

  /** Sends `wire` and waits for the reply `replyId` (null: none due; resolves at once). */
  send(wire: Wire, replyId: string | null, timeoutMs = REPLY_TIMEOUT_MS): Promise<Outcome> {
    const t0 = performance.now();
    const done = new Promise<Outcome>((resolve) => {
      if (replyId === null) return resolve({ reply: null, ms: 0 });
      const timer = setTimeout(() => {
        this.pending.delete(replyId);
        resolve({ timeout: true, ms: timeoutMs });
      }, timeoutMs);
      this.pending.set(replyId, (o) => {
        clearTimeout(timer);
        resolve({ ...o, ms: performance.now() - t0 } as Outcome);
      });
    });
    try {
      const dc = (this.link.conn as unknown as { dataChannel: RTCDataChannel }).dataChannel;
      if (wire.kind === 'json') void this.link.conn.send(wire.message);
      else if (wire.kind === 'bytes') dc.send(wire.bytes as Uint8Array<ArrayBuffer>);
      else dc.send(wire.text);
    } catch {
      // a closed channel: the close handler answers the waiter
    }
    if (this.closed) {
      const w = replyId !== null ? this.pending.get(replyId) : undefined;
      if (w && replyId !== null) {
        this.pending.delete(replyId);
        w({ closed: true, ms: 0 });
      }
    }
    return done;
  }

  close(): void {
    this.link.close();
  }
}

/** Shared cases run side by side; exclusive ones (unmatchable replies, link-closing sizes) run alone. */
class RwLock {
  private readers = 0;
  private writer = false;
  private queue: (() => void)[] = [];

  private pump() {
    while (this.queue.length) {
      const next = this.queue[0]!;
      next();
      if (this.queue[0] === next) break;
    }
  }

  shared<T>(fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const tryRun = () => {
        if (this.writer || (this.queue.length && this.queue[0] !== tryRun)) return;
        if (this.queue[0] === tryRun) this.queue.shift();
        this.readers++;
        fn()
          .then(resolve, reject)
          .finally(() => {
            this.readers--;
            this.pump();
          });
      };
      this.queue.push(tryRun);
      this.pump();
    });
  }

  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const tryRun = () => {
        if (this.writer || this.readers > 0 || this.queue[0] !== tryRun) return;
        this.queue.shift();
        this.writer = true;
        fn()
          .then(resolve, reject)
          .finally(() => {
            this.writer = false;
            this.pump();
          });
      };
      this.queue.push(tryRun);
      this.pump();
    });
  }
}

/** Checks one outcome against the case; returns the problem, or null. */
function judge(c: CommandCase, o: Outcome): { outcome: string; problem: string | null } {
  if ('timeout' in o) {
    if (c.replyId === null) return { outcome: 'no-reply-due', problem: null };
    return { outcome: 'timeout', problem: `no reply within ${REPLY_TIMEOUT_MS} ms` };
  }
  if ('closed' in o) {
    return c.mayClose
      ? { outcome: 'link-closed', problem: null }
      : { outcome: 'link-closed', problem: 'the agent closed the link instead of replying' };
  }
  if (c.replyId === null) return { outcome: 'no-reply-due', problem: null };
  const parsed = ReplyMessage.safeParse(o.reply);
  if (!parsed.success) {
    return { outcome: 'malformed-reply', problem: `malformed reply: ${clip(JSON.stringify(o.reply), 300)}` };
  }
  const reply = parsed.data;
  if (!reply.ok) {
    return { outcome: reply.error.code, problem: null };
  }
  if (c.mustRefuse) {
    return {
      outcome: 'ok',
      problem: `accepted a payload its schema refuses: ${clip(JSON.stringify(reply), 200)}`,
    };
  }
  const process = reply.process as keyof typeof deviceCommands;
  const spec = deviceCommands[process];
  if (spec) {
    const data = spec.reply.safeParse(reply.data);
    if (!data.success)
      return { outcome: 'ok', problem: `reply data does not match '${process}' reply schema` };
  }
  return { outcome: 'ok', problem: null };
}

const describeWire = (w: Wire): string =>
  w.kind === 'json'
    ? `conn.send(${clip(jsonText(w.message), 500)})`
    : w.kind === 'bytes'
      ? `dataChannel.send(<${w.bytes.length} bytes> ${clip(Buffer.from(w.bytes.slice(0, 400)).toString('utf8'), 300)})`
      : `dataChannel.send(text frame ${clip(JSON.stringify(w.text), 300)})`;

/** The agent answers ping on a link (a fresh one unless given). */
export async function agentAnswersPing(env: FuzzEnv, given?: OwnerLink): Promise<string | null> {
  let link: OwnerLink | undefined = given;
  try {
    link ??= await env.openOwnerLink();
    const l = new FuzzLink(link);
    const o = await l.send(
      { kind: 'json', message: { type: 'request', process: 'ping', requestId: 'alive', payload: {} } },
      'alive',
    );
    if (!('reply' in o) || !(o.reply as { ok?: boolean })?.ok)
      return `ping: ${JSON.stringify(o).slice(0, 200)}`;
    return null;
  } catch (err) {
    return `the agent could not be reached: ${(err as Error).message}`;
  } finally {
    if (!given) link?.close();
  }
}

export interface FloodSpec {
  process: keyof typeof deviceCommands;
  count: number;
}

/** Runs `n` command cases and the floods over a real link, and records them. */
export async function fuzzCommands(
  env: FuzzEnv,
  n: number,
  seed: number,
  recorder: Recorder,
  floods: FloodSpec[],
  concurrency = 16,
): Promise<void> {
  const requestJson = new Map<string, JsonSchema>();
  for (const p of PROCESSES) requestJson.set(p, jsonSchemaOf(deviceCommands[p].request));
  const master = new Rng(seed ^ 0x5bd1e995);
  const lock = new RwLock();
  let link = new FuzzLink(await env.openOwnerLink());
  let reopening: Promise<void> | null = null;
  const ensureLink = async () => {
    if (!link.closed) return;
    reopening ??= (async () => {
      link.close();
      link = new FuzzLink(await env.openOwnerLink());
    })().finally(() => (reopening = null));
    await reopening;
  };
  const t0 = performance.now();

  // The last cases sent, for the report when the agent crashes.
  const recent: string[] = [];
  const sent = (c: CommandCase) => {
    recent.push(
      `${new Date().toISOString()} #${c.index} ${c.target} ${c.label}: ${clip(describeWire(c.wire), 160)}`,
    );
    if (recent.length > 30) recent.shift();
  };
  let crashed: string[] | null = null;
  env.agent.child.once('exit', () => (crashed = recent.slice()));

  /** Sends case `c` on `on` and records what came back. */
  const sendAndRecord = async (on: FuzzLink, c: CommandCase) => {
    sent(c);
    const o = await on.send(c.wire, c.replyId);
    const { outcome, problem } = judge(c, o);
    recorder.count('commands', c.target, outcome, o.ms, c.label);
    if (problem) {
      recorder.fail({
        area: 'commands',
        target: c.target,
        index: c.index,
        label: c.label,
        problem,
        input: describeWire(c.wire),
      });
    }
  };

  const runCase = async (c: CommandCase) => {
    await ensureLink();
    await sendAndRecord(link, c);
  };

  /** A text frame goes on a link of its own (the agent may take seconds to drop a link it broke). */
  const runOnSideLink = async (c: CommandCase) => {
    const side = new FuzzLink(await env.openOwnerLink());
    try {
      await sendAndRecord(side, c);
    } finally {
      side.close();
    }
  };

  await pool(n, concurrency, async (i) => {
    if (env.agent.exited()) return; // a crash: reported once by the harness, with the agent's last lines
    const c = buildCommandCase(i, master.fork(i), requestJson);
    const alone = c.replyId === '' || c.mayClose;
    try {
      if (c.wire.kind === 'text') await lock.shared(() => runOnSideLink(c));
      else await (alone ? lock.exclusive(() => runCase(c)) : lock.shared(() => runCase(c)));
    } catch (err) {
      if (env.agent.exited()) return; // the crash is reported below
      // The link could not be (re)opened or broke mid-case: a failure of this case, recorded with its cause; the
      // next case opens a new link, so one slow moment does not end the whole run.
      recorder.fail({
        area: 'commands',
        target: c.target,
        index: c.index,
        label: c.label,
        problem: `no answer: ${err instanceof Error ? err.message : String(err)}`,
        input: describeWire(c.wire),
      });
    }
  });

  // Floods: `count` requests of one process at once; each reply within 5 s of its sending.
  let index = n;
  for (const flood of floods) {
    if (env.agent.exited()) break;
    await lock.exclusive(async () => {
      await ensureLink();
      const rng = master.fork(index);
      const schema = deviceCommands[flood.process].request;
      const json = requestJson.get(flood.process)!;
      const cases = Array.from({ length: flood.count }, (_, k): CommandCase => {
        const requestId = `flood${index + k}`;
        const payload = baseline(schema, rng, FIXTURES, json).value;
        return {
          index: index + k,
          target: flood.process,
          label: c0label(flood),
          wire: { kind: 'json', message: { type: 'request', process: flood.process, requestId, payload } },
          replyId: requestId,
          mustRefuse: false,
          mayClose: false,
        };
      });
      index += flood.count;
      const current = link;
      sent(cases[0]!);
      // A second link pings while the flood is served: a flood must not starve the device's other links.
      const watcher = new FuzzLink(await env.openOwnerLink());
      const pingDuring = (async () => {
        await new Promise((r) => setTimeout(r, 50));
        const ping: Wire = {
          kind: 'json',
          message: { type: 'request', process: 'ping', requestId: 'during', payload: {} },
        };
        return watcher.send(ping, 'during', FLOOD_WAIT_MS);
      })();
      const judged = await Promise.all(
        cases.map(async (c) => {
          const o = await current.send(c.wire, c.replyId, FLOOD_WAIT_MS);
          return { c, o, ...judge(c, o) };
        }),
      );
      for (const { c, o, outcome, problem } of judged) {
        recorder.count('commands', c.target, outcome, o.ms, c.label);
        const slow =
          o.ms > REPLY_TIMEOUT_MS ? `reply after ${Math.round(o.ms)} ms (over ${REPLY_TIMEOUT_MS} ms)` : null;
        if (problem || slow) {
          recorder.fail({
            area: 'commands',
            target: c.target,
            index: c.index,
            label: c.label,
            problem: problem ?? slow!,
            input: describeWire(c.wire),
          });
        }
      }
      const during = await pingDuring;
      const target = `ping during flood of ${flood.process}`;
      recorder.count('commands', target, 'reply' in during ? 'ok' : 'timeout', during.ms, c0label(flood));
      if (!('reply' in during) || during.ms > REPLY_TIMEOUT_MS) {
        recorder.fail({
          area: 'commands',
          target,
          index: -1,
          label: c0label(flood),
          problem: 'reply' in during ? `ping answered after ${Math.round(during.ms)} ms` : 'no ping reply',
          input: `${flood.count} × ${flood.process} at once on one link, ping on another`,
        });
      }
      watcher.close();
    });
  }
  recorder.areas.commands.durationMs = Math.round(performance.now() - t0);
  if (crashed) {
    recorder.fail(
      {
        area: 'commands',
        target: '(agent crash)',
        index: -1,
        label: 'cases in flight',
        problem: `the agent crashed (${env.agent.exited()}) after these cases`,
        input: (crashed as string[]).join('\n'),
      },
      6_000,
    );
    return;
  }

  // The link the fuzz used still answers (unless the agent rightly closed it), and so does a new one.
  await ensureLink();
  const old = await agentAnswersPing(env, link.link);
  if (old)
    recorder.fail({
      area: 'liveness',
      target: 'ping',
      index: -1,
      label: 'after commands (same link)',
      problem: old,
      input: 'ping',
    });
  link.close();
}

/**
 * Link churn: `workers` browsers at once each open a link, fire `perLink` send-sdp with schema-valid but
 * useless offers, and close the link 50–450 ms later (a console tab reloading while its streams start), for
 * `seconds`. The agent must survive it (it must end half-started streams of a closed link cleanly).
 */
export async function fuzzLinkChurn(
  env: FuzzEnv,
  seconds: number,
  seed: number,
  recorder: Recorder,
  workers = 6,
  perLink = 20,
): Promise<void> {
  if (seconds <= 0) return;
  const rng = new Rng(seed ^ 0x1b873593);
  const schema = deviceCommands['send-sdp'].request;
  const json = jsonSchemaOf(schema);
  const end = Date.now() + seconds * 1000;
  let links = 0;
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      while (Date.now() < end && !env.agent.exited()) {
        let link: OwnerLink | undefined;
        try {
          link = await env.openOwnerLink();
          links++;
          for (let k = 0; k < perLink; k++) {
            const payload = baseline(schema, rng, FIXTURES, json).value;
            void link.conn.send({
              type: 'request',
              process: 'send-sdp',
              requestId: `churn${w}-${k}`,
              payload,
            });
            recorder.count('commands', 'send-sdp (link churn)', 'sent', 0, 'link-churn');
          }
          await new Promise((r) => setTimeout(r, 50 + rng.int(0, 400)));
        } catch (err) {
          if (!env.agent.exited()) throw err;
        } finally {
          link?.close();
        }
      }
    }),
  );
  recorder.areas.commands.outcomes['churn-links'] = links;
  if (env.agent.exited()) {
    recorder.fail({
      area: 'commands',
      target: 'send-sdp (link churn)',
      index: -1,
      label: `link-churn:${workers}x${perLink}`,
      problem: `the agent crashed (${env.agent.exited()}) after ${links} links`,
      input: `${workers} links at a time, each: ${perLink} × send-sdp {camera_id, callId, sdp: {type:'offer', sdp: garbage}} then close after 50–450 ms`,
    });
  }
}
