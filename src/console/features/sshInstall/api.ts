/**
 * The SSH install's REST calls (src/protocol/sshInstall.ts; spec §7 connect-ssh, ssh-command): creating the
 * device record, connecting (JSON with a password, or multipart with `pemFile` and `formInfo`), running one
 * step with its NDJSON answer read as it streams, disconnecting and forgetting a pinned host key.
 *
 * The platform's `http.call` parses one JSON answer, so the two calls it cannot make — the multipart connect and
 * the streamed step — use fetch here with the session's token (`getToken`); an expired token (401
 * Token_expired) is refreshed through `http` (one cheap call takes the platform's refresh rule) and the call is
 * sent once more. Failures reject with SshFailure { code, message, status }.
 */
import { SshCommandLine, type SshConnectAnswer, type SshProcess } from '../../../protocol/sshInstall';
import type {
  SshCredentials,
  SshFailure,
  SshInstallTarget,
} from '../../../../machines/sshInstall/sshInstall.machine';
import type { Http } from '../../platform/http';
import { ApiRequestError, SERVERS_UNAVAILABLE } from '../../platform/http';

/** An SshFailure as an Error (what the machine's onError receives). */
export class SshCallError extends Error implements SshFailure {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'SshCallError';
  }
}

const fromApiError = (e: unknown): SshCallError =>
  e instanceof ApiRequestError
    ? new SshCallError(e.message, e.code, e.status)
    : new SshCallError(e instanceof Error ? e.message : String(e), 'network', 0);

/** Reads an error answer's { code, message }. */
async function failureOf(res: Response): Promise<SshCallError> {
  const body = (await res.json().catch(() => null)) as { code?: unknown; message?: unknown } | null;
  return new SshCallError(
    typeof body?.message === 'string' ? body.message : `Request failed (${res.status}).`,
    typeof body?.code === 'string' ? body.code : 'http_error',
    res.status,
  );
}

export interface SshApiDeps {
  http: Http;
  /** The session's access token now (null: signed out). */
  getToken: () => string | null;
  fetch?: typeof globalThis.fetch;
}

export function sshInstallApi({ http, getToken, fetch: f = (...a) => globalThis.fetch(...a) }: SshApiDeps) {
  /** fetch with `Authorization: Token …`, refreshing an expired token once. */
  async function authed(url: string, init: RequestInit): Promise<Response> {
    const send = () =>
      f(url, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), Authorization: `Token ${getToken() ?? ''}` },
      });
    let res: Response;
    try {
      res = await send();
      if (res.status === 401) {
        const body = (await res
          .clone()
          .json()
          .catch(() => null)) as { code?: string } | null;
        if (body?.code === 'Token_expired') {
          await http.call('devices.online', {}); // takes the platform's refresh rule
          res = await send();
        }
      }
    } catch (e) {
      if (init.signal?.aborted) throw e;
      throw new SshCallError(SERVERS_UNAVAILABLE, 'network', 0);
    }
    return res;
  }

  return {
    /** Creates the device record (ssh-install/device) → its peer id. */
    async createDevice(label: string): Promise<string> {
      try {
        const a = await http.call('sshInstall.createDevice', { body: { label } });
        return a.device_id;
      } catch (e) {
        throw fromApiError(e);
      }
    },

    /** connect-ssh with the credentials (password as JSON; a key as multipart pemFile + formInfo). */
    async connect(target: SshInstallTarget, credentials: SshCredentials): Promise<SshConnectAnswer> {
      const info = {
        device_id: target.deviceId,
        hostname: target.hostname,
        port: target.port,
        username: target.username,
      };
      if (credentials.kind === 'password') {
        try {
          return await http.call('sshInstall.connect', { body: { ...info, password: credentials.password } });
        } catch (e) {
          throw fromApiError(e);
        }
      }
      const form = new FormData();
      form.set('pemFile', credentials.pemFile, 'private-key');
      form.set('formInfo', JSON.stringify({ ...info, passphrase: credentials.passphrase || undefined }));
      const res = await authed('/api/connect-ssh', { method: 'POST', body: form });
      if (!res.ok) throw await failureOf(res);
      return (await res.json()) as SshConnectAnswer;
    },

    /**
     * ssh-command: `onLines` gets each chunk's output lines as they arrive; resolves with the step's result
     * (or rejects with SshCallError: an error answer, or an answer that ended without a result).
     */
    async runStep(
      sessionId: string,
      process: SshProcess,
      payload: Record<string, unknown>,
      onLines: (lines: string[]) => void,
      signal: AbortSignal,
    ) {
      const res = await authed('/api/ssh-command', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ session_id: sessionId, process, payload }),
        signal,
      });
      if (!res.ok || !res.body) throw await failureOf(res);
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let rest = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        rest += value;
        const parts = rest.split('\n');
        rest = parts.pop() ?? '';
        const lines: string[] = [];
        for (const p of parts) {
          if (!p) continue;
          const parsed = SshCommandLine.safeParse(JSON.parse(p));
          if (!parsed.success) continue;
          if (parsed.data.type === 'output') lines.push(parsed.data.text);
          else {
            if (lines.length) onLines(lines);
            return parsed.data.result;
          }
        }
        if (lines.length) onLines(lines);
      }
      throw new SshCallError(
        'The step ended without a result (the connection to the server broke).',
        'network',
        0,
      );
    },

    /** ssh-disconnect; never rejects. */
    async disconnect(sessionId: string | null): Promise<void> {
      if (!sessionId) return;
      await http.call('sshInstall.disconnect', { body: { session_id: sessionId } }).catch(() => undefined);
    },

    /** Forgets the pinned host key of hostname:port. */
    async forgetHostKey(hostname: string, port: number): Promise<void> {
      await http.call('sshInstall.forgetHostKey', { body: { hostname, port } });
    },
  };
}
