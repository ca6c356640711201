/** Helpers for the signalling tests: raw PeerJS sockets, Node PeerJS browsers, a logger that keeps lines. */
import type { Peer as PeerType } from 'peerjs';
import WebSocket from 'ws';
import type { Logger } from '../../../src/agent/log';
import { peerOptions } from '../../../src/agent/link/signalling';
import { authorizeSignalling, loadPeer } from '../../../src/agent/wrtc';
import { TestLink } from '../agent/loopback';
import { signallingUpgrade } from '../server/helpers';

/** A logger that records `LEVEL message {detail}` lines. */
export function captureLogger(): Logger & { lines: string[]; has(re: RegExp): boolean } {
  const lines: string[] = [];
  const write = (level: string) => (message: string, detail?: Record<string, unknown>) => {
    lines.push(`${level} ${message}${detail ? ` ${JSON.stringify(detail)}` : ''}`);
  };
  return {
    lines,
    info: write('INFO'),
    warn: write('WARN'),
    error: write('ERROR'),
    has: (re) => lines.some((l) => re.test(l)),
  };
}

/** A PeerJS signalling socket driven by hand: what a hostile (or any) client can send. */
export class RawPeer {
  readonly received: { type: string; src?: string; dst?: string; payload?: unknown }[] = [];
  closeCode: number | null = null;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.received.push(JSON.parse(String(data)) as RawPeer['received'][number]));
    ws.on('close', (code) => {
      this.closeCode = code;
    });
    ws.on('error', () => {});
  }

  /** Opens the signalling socket of `id` on `serverUrl` (see signallingUpgrade) and waits for OPEN. */
  static async open(serverUrl: string, id: string, token: string): Promise<RawPeer> {
    const upgrade = signallingUpgrade(serverUrl, id, token);
    const ws = new WebSocket(upgrade.url, { headers: upgrade.headers });
    const peer = new RawPeer(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('message', () => resolve());
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade answered ${res.statusCode}`)));
      ws.once('error', reject);
    });
    if (peer.received[0]?.type !== 'OPEN')
      throw new Error(`first message ${JSON.stringify(peer.received[0])}`);
    return peer;
  }

  /** Sends objects as JSON and strings as they are. */
  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Resolves once everything sent has left the socket. */
  async flushed(): Promise<void> {
    while (this.ws.bufferedAmount > 0) await new Promise((r) => setTimeout(r, 5));
  }

  close(): void {
    this.ws.terminate();
  }
}

/**
 * A Node PeerJS peer (wrtc) registered as `id` with `token`: a JWT goes in the upgrade's Authorization
 * header (the server refuses one in the URL), anything else (a test server that checks nothing) in the URL.
 */
export async function openBrowser(serverUrl: string, id: string, token: string): Promise<PeerType> {
  const Peer = await loadPeer();
  const jwt = token.split('.').length === 3;
  if (jwt) authorizeSignalling(id, token);
  const peer = new Peer(id, peerOptions(serverUrl, jwt ? undefined : token, []));
  await new Promise<void>((resolve, reject) => {
    peer.once('open', () => resolve());
    peer.once('error', reject);
  });
  return peer;
}

/** Opens a data connection to `deviceId` like the console does, says hello with `grant`, awaits hello.ok. */
export async function greet(peer: PeerType, deviceId: string, grant: string): Promise<TestLink> {
  const link = new TestLink(peer.connect(deviceId, { serialization: 'json', reliable: true }));
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no data channel to ${deviceId} within 15 s`)), 15_000);
    link.conn.once('open', () => {
      clearTimeout(t);
      resolve();
    });
  });
  void link.conn.send({ type: 'hello', grant });
  await link.next((m) => m.type === 'hello.ok', 'hello.ok');
  return link;
}
