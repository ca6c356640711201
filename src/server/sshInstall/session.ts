/**
 * SSH sessions of the SSH install (issue 12; spec §7 connect-ssh / ssh-command): one ssh2 connection per
 * session, held in the server's memory with the credentials it was opened with (a password is kept only for
 * `sudo` inside that session; nothing is stored or logged), closed on disconnect, after SSH_SESSION_IDLE_MS
 * unused, or when the server stops.
 *
 * Host keys are pinned on first use per (user, host, port) in `ssh_host_keys`: the first connection records
 * the key's fingerprint (OpenSSH `SHA256:<base64>`); a later one offering another key is refused with
 * SSH_HOST_KEY_CHANGED before any credential is sent.
 */
import { createHash, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import ssh2, { type Client as SshClient, type ClientChannel, type ConnectConfig } from 'ssh2';
import {
  SSH_CONNECT_TIMEOUT_MS,
  SSH_ERROR_CODES,
  SSH_SESSION_IDLE_MS,
  SSH_STEP_TIMEOUT_MS,
} from '../../protocol/sshInstall';
import type { Db } from '../db';
import { sshHostKeys } from '../db/schema';

/** A refused connection or command: code from SSH_ERROR_CODES, message for the operator. */
export class SshError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'SshError';
  }
}

/** Where to connect and with what. Exactly one of password / privateKey. */
export interface SshConnectInput {
  ownerId: string;
  host: string;
  port: number;
  username: string;
  password?: string;
  privateKey?: string;
  passphrase?: string;
}

/** An open session. `password` is the one it logged in with (sudo), null with a key. */
export interface SshSession {
  id: string;
  ownerId: string;
  deviceRowId: string;
  host: string;
  port: number;
  username: string;
  fingerprint: string;
  keyType: string;
  client: SshClient;
  password: string | null;
  /** A step runs now (one at a time per session). */
  busy: boolean;
  idleTimer: NodeJS.Timeout | null;
}

/** OpenSSH's fingerprint of a host key blob: `SHA256:` + unpadded base64 of its SHA-256. */
export function fingerprintOf(keyBlob: Buffer): string {
  return `SHA256:${createHash('sha256').update(keyBlob).digest('base64').replace(/=+$/, '')}`;
}

/** The key type named at the start of an SSH key blob (`ssh-ed25519`, `rsa-sha2-…`), or 'unknown'. */
export function keyTypeOf(keyBlob: Buffer): string {
  if (keyBlob.length < 4) return 'unknown';
  const n = keyBlob.readUInt32BE(0);
  if (n <= 0 || n > 64 || 4 + n > keyBlob.length) return 'unknown';
  return keyBlob.subarray(4, 4 + n).toString('latin1');
}

/** Checks that `pem` is a private key ssh2 can use (with `passphrase` when encrypted). */
export function checkPrivateKey(pem: string, passphrase?: string): void {
  const parsed = ssh2.utils.parseKey(pem, passphrase);
  if (parsed instanceof Error) {
    throw new SshError(
      SSH_ERROR_CODES.keyInvalid,
      /passphrase|encrypted/i.test(parsed.message)
        ? 'The private key is encrypted: give its passphrase.'
        : `The private key file cannot be read (${parsed.message}).`,
    );
  }
}

/** Maps an ssh2 / socket error to an SshError. */
function connectError(err: Error & { level?: string; code?: string }, host: string, port: number): SshError {
  if (err instanceof SshError) return err;
  if (err.level === 'client-authentication')
    return new SshError(
      SSH_ERROR_CODES.authFailed,
      'The host refused the username and password or key (authentication failed).',
    );
  if (err.level === 'client-timeout' || /timed out/i.test(err.message))
    return new SshError(
      SSH_ERROR_CODES.timeout,
      `No SSH handshake from ${host}:${port} within ${SSH_CONNECT_TIMEOUT_MS / 1000} s.`,
    );
  if (err.code === 'ECONNREFUSED')
    return new SshError(SSH_ERROR_CODES.unreachable, `Nothing accepts SSH connections at ${host}:${port}.`);
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN')
    return new SshError(SSH_ERROR_CODES.unreachable, `The host name ${host} cannot be resolved.`);
  if (err.code === 'EHOSTUNREACH' || err.code === 'ENETUNREACH')
    return new SshError(SSH_ERROR_CODES.unreachable, `${host} cannot be reached from the server.`);
  return new SshError(
    SSH_ERROR_CODES.unreachable,
    `SSH connection to ${host}:${port} failed: ${err.message}`,
  );
}

/** What one remote command printed and how it ended. */
export interface ExecOutcome {
  exitCode: number | null;
  signal: string | null;
  canceled: boolean;
}

/** Runs one command; `onLine` gets each output line (without its newline) as it arrives. */
export interface ExecOptions {
  stdin?: Buffer | string;
  onLine: (stream: 'stdout' | 'stderr', text: string) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Longest output line passed on, characters (the rest is cut with an ellipsis). */
const LINE_MAX_CHARS = 2000;

/** Splits a byte stream into lines (utf-8; \r\n and lone \r end a line too: progress bars). */
function lineSplitter(emit: (text: string) => void) {
  let rest = '';
  const decoder = new TextDecoder();
  const out = (s: string) => emit(s.length > LINE_MAX_CHARS ? `${s.slice(0, LINE_MAX_CHARS)}…` : s);
  return {
    push(chunk: Buffer) {
      rest += decoder.decode(chunk, { stream: true });
      const parts = rest.split(/\r\n|\n|\r/);
      rest = parts.pop() ?? '';
      for (const p of parts) out(p);
    },
    end() {
      rest += decoder.decode();
      if (rest) out(rest);
      rest = '';
    },
  };
}

/** The sessions of one server: connect, run, disconnect. */
export class SshSessions {
  private readonly sessions = new Map<string, SshSession>();

  constructor(
    private readonly db: Db,
    private readonly idleMs = SSH_SESSION_IDLE_MS,
  ) {}

  /** The pinned key of (owner, host, port), or null. */
  private async pinned(ownerId: string, host: string, port: number) {
    const [row] = await this.db
      .select()
      .from(sshHostKeys)
      .where(and(eq(sshHostKeys.ownerId, ownerId), eq(sshHostKeys.host, host), eq(sshHostKeys.port, port)))
      .limit(1);
    return row ?? null;
  }

  /**
   * Opens a session to input's host for device `deviceRowId`. Resolves with it (pinnedNow: the host key was
   * pinned by this connection); rejects with SshError (SSH_ERROR_CODES) otherwise.
   */
  async connect(
    input: SshConnectInput,
    deviceRowId: string,
  ): Promise<{ session: SshSession; pinnedNow: boolean }> {
    if (input.privateKey) checkPrivateKey(input.privateKey, input.passphrase);
    const pin = await this.pinned(input.ownerId, input.host, input.port);
    let offered: { fingerprint: string; keyType: string } | null = null;
    let refused: SshError | null = null;
    const client = new ssh2.Client();
    const config: ConnectConfig = {
      host: input.host,
      port: input.port,
      username: input.username,
      readyTimeout: SSH_CONNECT_TIMEOUT_MS,
      keepaliveInterval: 15_000,
      tryKeyboard: false,
      hostVerifier: (key: Buffer) => {
        offered = { fingerprint: fingerprintOf(key), keyType: keyTypeOf(key) };
        if (pin && pin.fingerprint !== offered.fingerprint) {
          refused = new SshError(
            SSH_ERROR_CODES.hostKeyChanged,
            `The host key of ${input.host}:${input.port} has changed: pinned ${pin.fingerprint}, offered ${offered.fingerprint}. ` +
              'This may be a reinstalled machine or an attack; nothing was sent. Forget the pinned key only if you know why it changed.',
          );
          return false;
        }
        return true;
      },
      ...(input.privateKey
        ? { privateKey: input.privateKey, passphrase: input.passphrase }
        : { password: input.password }),
    };
    await new Promise<void>((resolve, reject) => {
      client.once('ready', () => resolve());
      client.once('error', (err) => reject(refused ?? connectError(err, input.host, input.port)));
      client.once('close', () =>
        reject(refused ?? new SshError(SSH_ERROR_CODES.unreachable, 'The host closed the SSH connection.')),
      );
      try {
        client.connect(config);
      } catch (err) {
        reject(connectError(err as Error, input.host, input.port));
      }
    }).catch((err: unknown) => {
      client.end();
      throw err;
    });
    const key = offered as { fingerprint: string; keyType: string } | null;
    if (!key) {
      client.end();
      throw new SshError(SSH_ERROR_CODES.unreachable, 'The host offered no host key.');
    }
    let pinnedNow = false;
    if (!pin) {
      const inserted = await this.db
        .insert(sshHostKeys)
        .values({
          ownerId: input.ownerId,
          host: input.host,
          port: input.port,
          keyType: key.keyType,
          fingerprint: key.fingerprint,
        })
        .onConflictDoNothing()
        .returning({ id: sshHostKeys.id });
      pinnedNow = inserted.length > 0;
    }
    const session: SshSession = {
      id: randomUUID(),
      ownerId: input.ownerId,
      deviceRowId,
      host: input.host,
      port: input.port,
      username: input.username,
      fingerprint: key.fingerprint,
      keyType: key.keyType,
      client,
      password: input.password ?? null,
      busy: false,
      idleTimer: null,
    };
    client.on('error', () => this.close(session.id));
    client.on('close', () => this.close(session.id));
    this.sessions.set(session.id, session);
    this.touch(session);
    return { session, pinnedNow };
  }

  /** Restarts the idle timer of `session`. */
  private touch(session: SshSession) {
    if (session.idleTimer) clearTimeout(session.idleTimer);
    session.idleTimer = setTimeout(() => this.close(session.id), this.idleMs);
    session.idleTimer.unref();
  }

  /** The caller's session `id`; SSH_SESSION_GONE when there is none (or it is another user's). */
  get(id: string, ownerId: string): SshSession {
    const s = this.sessions.get(id);
    if (!s || s.ownerId !== ownerId)
      throw new SshError(SSH_ERROR_CODES.sessionGone, 'The SSH session is closed: connect again.');
    this.touch(s);
    return s;
  }

  /** Closes session `id` and forgets its credentials. Returns whether it was open. */
  close(id: string): boolean {
    const s = this.sessions.get(id);
    if (!s) return false;
    this.sessions.delete(id);
    if (s.idleTimer) clearTimeout(s.idleTimer);
    s.password = null;
    s.client.end();
    return true;
  }

  /** Closes every session (server stop). */
  closeAll(): void {
    for (const id of [...this.sessions.keys()]) this.close(id);
  }

  /** Open sessions (tests). */
  get size(): number {
    return this.sessions.size;
  }

  /**
   * Runs `command` in `session` (no pty), passing each output line to `onLine` as it arrives. Resolves when
   * it ends (exit code, or signal), when `signal` aborts (canceled: the channel is signalled and closed) or
   * after `timeoutMs` (canceled too). Rejects with SshError when the channel cannot be opened.
   */
  exec(session: SshSession, command: string, options: ExecOptions): Promise<ExecOutcome> {
    return new Promise<ExecOutcome>((resolve, reject) => {
      session.client.exec(command, (err, channel: ClientChannel) => {
        if (err) {
          reject(
            new SshError(SSH_ERROR_CODES.sessionGone, `The host refused to run the step: ${err.message}`),
          );
          return;
        }
        let done = false;
        let exitCode: number | null = null;
        let exitSignal: string | null = null;
        const out = lineSplitter((t) => options.onLine('stdout', t));
        const errs = lineSplitter((t) => options.onLine('stderr', t));
        const finish = (canceled: boolean) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
          out.end();
          errs.end();
          resolve({ exitCode, signal: exitSignal, canceled });
        };
        const cancel = () => {
          try {
            channel.signal('TERM');
          } catch {
            // the host may not support signals: closing the channel ends the command's pipes
          }
          channel.close();
          finish(true);
        };
        const onAbort = () => cancel();
        const timer = setTimeout(cancel, options.timeoutMs ?? SSH_STEP_TIMEOUT_MS);
        options.signal?.addEventListener('abort', onAbort, { once: true });
        if (options.signal?.aborted) return cancel();
        channel.on('data', (chunk: Buffer) => out.push(chunk));
        channel.stderr.on('data', (chunk: Buffer) => errs.push(chunk));
        channel.on('exit', (code: number | null, sig?: string) => {
          exitCode = typeof code === 'number' ? code : null;
          exitSignal = sig ?? null;
        });
        channel.on('close', () => finish(false));
        if (options.stdin !== undefined) channel.end(options.stdin);
        else channel.end();
      });
    });
  }
}
