/**
 * One device link: a PeerJS data connection from a browser (team brief "Device link"). The first message
 * must be `{ type:'hello', grant }` within HELLO_TIMEOUT_MS of the channel opening; the agent verifies the
 * grant and answers hello.ok, or hello.error and closes. After that every message is a request, answered
 * by the dispatcher; nothing a browser sends can throw out of here. When the link closes, the streams
 * opened through it end.
 */
import {
  HelloMessage,
  LINK_ERROR_CODES,
  LINK_KEEPALIVE_INTERVAL_MS,
  LINK_SILENCE_TIMEOUT_MS,
} from '../../protocol';
import type { AgentToBrowser } from '../../protocol';
import type { Handlers } from '../commands/registry';
import type { Logger } from '../log';
import { errorMessage } from '../log';
import { dispatchRequest, parseRawMessage } from './dispatcher';
import type { GrantVerifier } from './grant';
import { GrantError } from './grant';

/** The browser's first message must arrive within 5 s of the channel opening. */
export const HELLO_TIMEOUT_MS = 5_000;
/** A connection whose channel does not open within 30 s is dropped. */
export const OPEN_TIMEOUT_MS = 30_000;
/**
 * PeerJS 1.5.5 refuses JSON messages of 16300 bytes or more (DataConnection chunkedMTU, "Message too big
 * for JSON channel"); larger replies are replaced by an error reply.
 */
export const MAX_MESSAGE_BYTES = 16_300;

/** The part of a PeerJS DataConnection a link uses (tests pass fakes). */
export interface LinkConnection {
  /** Remote peer id (the browser_id). */
  readonly peer: string;
  readonly open: boolean;
  send(data: unknown): void | Promise<void>;
  close(options?: { flush?: boolean }): void;
  on(event: 'open' | 'close', listener: () => void): unknown;
  on(event: 'data', listener: (data: unknown) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
}

export interface LinkDeps<C> {
  deviceId: string;
  verifier: GrantVerifier;
  handlers: Handlers<C>;
  /** Builds the handler context for a verified browser. */
  makeContext(browserId: string, linkId: string): C;
  /** Called once when the link is gone (end its streams). */
  onClosed(link: LinkSession): void;
  logger: Logger;
  helloTimeoutMs?: number;
}

/** A live link, as the agent tracks it. */
export interface LinkSession {
  readonly id: string;
  readonly browserId: string;
  /** True once the grant is verified. */
  readonly authenticated: boolean;
  /** Pushes an event message (e.g. stream.status) to the browser; ignored when the link is not ready. */
  sendEvent(name: string, data: unknown): void;
  close(): void;
}

let linkCounter = 0;

/**
 * Takes over an incoming data connection. PeerJS parses JSON itself and a parse error would be thrown from
 * its message handler, so the connection's parser is replaced with one that turns bad input into a
 * malformed marker the dispatcher answers.
 */
export function attachLink<C>(conn: LinkConnection, deps: LinkDeps<C>): LinkSession {
  const id = `link-${++linkCounter}`;
  const browserId = conn.peer;
  const log = deps.logger;
  let state: 'opening' | 'hello' | 'verifying' | 'ready' | 'closed' = 'opening';
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  let lastHeardAt = Date.now();
  let ctx: C | undefined;
  let helloTimer: NodeJS.Timeout | undefined;
  /** Requests that arrive while the grant is being verified; answered once it is. */
  const early: unknown[] = [];
  /**
   * One AbortController per request in flight, all aborted when the link closes: each request's CallScope
   * gets a signal of its own. One shared signal collected a listener per waiting request (IP camera stills,
   * followed logs…), and Node warns past 10 (MaxListenersExceededWarning) although every listener is removed;
   * a link has no fixed bound on requests in flight to raise that limit to.
   */
  const inFlight = new Set<AbortController>();
  installSafeParser(conn);

  const send = (message: AgentToBrowser) => {
    if (state === 'closed' || !conn.open) return;
    let out: AgentToBrowser = message;
    if (message.type === 'reply' && Buffer.byteLength(JSON.stringify(message)) >= MAX_MESSAGE_BYTES) {
      out = {
        type: 'reply',
        process: message.process,
        requestId: message.requestId,
        ok: false,
        error: { code: LINK_ERROR_CODES.internal, message: 'The reply is too large for the device link' },
      };
    }
    try {
      void Promise.resolve(conn.send(out)).catch((err: unknown) =>
        log.warn(`link ${id}: send failed: ${errorMessage(err)}`),
      );
    } catch (err) {
      log.warn(`link ${id}: send failed: ${errorMessage(err)}`);
    }
  };

  const refuse = (code: string, message: string) => {
    send({ type: 'hello.error', error: { code, message } });
    log.warn(`link ${id} from ${browserId} refused: ${message}`);
    // Let hello.error reach the browser, then close (PeerJS flush-close asks the other end to close).
    try {
      conn.close({ flush: true });
    } catch {
      // closing anyway below
    }
    setTimeout(() => session.close(), 1_000).unref();
    state = 'closed';
  };

  const openTimer = setTimeout(() => {
    if (state === 'opening') {
      log.warn(`link ${id} from ${browserId} never opened`);
      session.close();
    }
  }, OPEN_TIMEOUT_MS);
  openTimer.unref();

  const onOpen = () => {
    if (state !== 'opening') return;
    clearTimeout(openTimer);
    state = 'hello';
    helloTimer = setTimeout(() => {
      if (state === 'hello') refuse(LINK_ERROR_CODES.timeout, 'No hello with a grant within 5 s');
    }, deps.helloTimeoutMs ?? HELLO_TIMEOUT_MS);
  };

  const onHello = async (raw: unknown) => {
    clearTimeout(helloTimer);
    const hello = HelloMessage.safeParse(parseRawMessage(raw));
    if (!hello.success) {
      refuse(LINK_ERROR_CODES.unauthorized, 'The first message must be { type: "hello", grant }');
      return;
    }
    state = 'verifying';
    try {
      await deps.verifier.verify(hello.data.grant, browserId);
    } catch (err) {
      if (state !== 'verifying') return;
      const message = err instanceof GrantError ? err.message : `Grant check failed: ${errorMessage(err)}`;
      refuse(LINK_ERROR_CODES.unauthorized, message);
      return;
    }
    if (state !== 'verifying') return;
    ctx = deps.makeContext(browserId, id);
    state = 'ready';
    send({ type: 'hello.ok', device_id: deps.deviceId });
    log.info(`link ${id} from ${browserId} ready`);
    // §9 keep-alive: the browser closes a link that stays silent (a killed agent never says goodbye).
    // …and closes a link the browser stopped talking on (a closed tab never says goodbye).
    lastHeardAt = Date.now();
    keepAlive = setInterval(() => {
      if (Date.now() - lastHeardAt > LINK_SILENCE_TIMEOUT_MS) {
        log.info(`link ${id} from ${browserId} silent for ${LINK_SILENCE_TIMEOUT_MS} ms; closing`);
        session.close();
        return;
      }
      send({ type: 'event', name: 'keepalive', data: {} });
    }, LINK_KEEPALIVE_INTERVAL_MS);
    keepAlive.unref?.();
    for (const raw of early.splice(0)) onData(raw);
  };

  const onData = (raw: unknown) => {
    lastHeardAt = Date.now();
    if (isKeepAlive(raw)) return;
    // wrtc may deliver the first message before the channel's open event: the channel is evidently open.
    if (state === 'opening') onOpen();
    if (state === 'hello') {
      void onHello(raw);
    } else if (state === 'ready' && ctx !== undefined) {
      const call = new AbortController();
      inFlight.add(call);
      void dispatchRequest(
        raw,
        deps.handlers,
        ctx,
        log,
        (progress) => {
          if (state === 'ready') send(progress);
        },
        call.signal,
      ).then((reply) => {
        inFlight.delete(call);
        send(reply);
      });
    } else if (state === 'verifying' && early.length < 100) {
      early.push(raw);
    }
  };

  let closedNotified = false;
  const session: LinkSession = {
    id,
    browserId,
    get authenticated() {
      return ctx !== undefined && state === 'ready';
    },
    sendEvent(name, data) {
      if (state === 'ready') send({ type: 'event', name, data });
    },
    close() {
      state = 'closed';
      for (const call of inFlight) call.abort();
      inFlight.clear();
      clearInterval(keepAlive);
      clearTimeout(openTimer);
      clearTimeout(helloTimer);
      try {
        conn.close();
      } catch {
        // already closed
      }
      if (!closedNotified) {
        closedNotified = true;
        log.info(`link ${id} from ${browserId} closed`);
        try {
          deps.onClosed(session);
        } catch (err) {
          log.error(`link ${id}: close handler failed: ${errorMessage(err)}`);
        }
      }
    },
  };

  conn.on('open', onOpen);
  conn.on('data', (raw) => {
    try {
      onData(raw);
    } catch (err) {
      log.error(`link ${id}: message handling failed: ${errorMessage(err)}`);
    }
  });
  conn.on('close', () => session.close());
  conn.on('error', (err) => log.warn(`link ${id} from ${browserId}: ${errorMessage(err)}`));
  if (conn.open) onOpen();
  return session;
}

/** The browser's keep-alive (link.ts KeepAliveMessage): it only proves the link is alive. */
const isKeepAlive = (raw: unknown): boolean =>
  typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'keepalive';

/** Replaces PeerJS's JSON.parse on this connection with one that never throws and always yields an object. */
function installSafeParser(conn: LinkConnection): void {
  const c = conn as unknown as { parse?: unknown; decoder?: unknown };
  if (typeof c.parse !== 'function') return;
  c.parse = (text: string): unknown => {
    try {
      const value: unknown = JSON.parse(text);
      return typeof value === 'object' && value !== null ? value : { malformed: 'not an object' };
    } catch {
      return { malformed: 'not JSON' };
    }
  };
  // PeerJS sends binary frames; a text frame (or anything else) reached TextDecoder.decode and threw out of the
  // data channel's event handler. Text is read as it is; what is neither becomes '' (→ malformed_message).
  if (c.decoder !== undefined) {
    const decoder = new TextDecoder();
    c.decoder = {
      decode: (data: unknown): string => {
        if (typeof data === 'string') return data;
        if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return decoder.decode(data);
        return '';
      },
    };
  }
}
