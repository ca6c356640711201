/**
 * Handlers of the SSH install routes (src/protocol/sshInstall.ts; issue 12, spec §7 connect-ssh, ssh-command):
 *   POST ssh-install/device      { label } → { id, device_id, label }: the device record the install makes live
 *   POST connect-ssh             JSON (password) or multipart (pemFile + formInfo) → SshConnectAnswer;
 *                                404 device, 409 SSH_* (unreachable, timeout, auth, key, host key changed)
 *   POST ssh-command             { session_id, process, payload } → NDJSON (SshCommandLine) as the host prints;
 *                                404 SSH_SESSION_GONE, 409 SSH_SESSION_BUSY / SSH_NO_RELEASE; closing the
 *                                request cancels the step
 *   POST ssh-disconnect          { session_id } → { ok, message: "Disconnected." }
 *   POST ssh-host-keys/forget    { hostname, port } → { ok, removed }
 * Settings: SSH_INSTALL_SERVER_URL (the console address the installed client calls; default the address the
 * browser used), SSH_INSTALL_AGENT_SOURCE (the agent checkout the client runs when the release bundle has no
 * entry; default this repository).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  SSH_ERROR_CODES,
  SSH_KEY_MAX_BYTES,
  SSH_TEXTS,
  SshKeyFormInfo,
  type SshCommandLine,
  type SshProcess,
  type sshInstallRoutes,
} from '../../protocol/sshInstall';
import { compareVersions } from '../../protocol/software';
import { userOf } from '../auth/guard';
import type { ServerContext } from '../context';
import { findOwnDevice } from '../db/scope';
import { agentReleases, devices, sshHostKeys } from '../db/schema';
import { badRequest, HttpError, notFound } from '../errors';
import { newDevicePeerId } from '../seed';
import { readsPassword, scriptFact, scriptFor } from '../sshInstall/scripts';
import { SshError, SshSessions, type SshSession } from '../sshInstall/session';
import { issueDeviceToken } from './devices';
import type { HandlersOf } from './register';
import { releasesDir } from './software';

const CONNECT_PATH = '/api/connect-ssh';
/** How long start-client waits for the new device to register with signalling, ms. */
export const START_ONLINE_TIMEOUT_MS = 30_000;
/** This repository's root: the default agent source. */
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The newest published agent release with its bundle file, or null when none is published. */
async function latestReleaseFile(ctx: ServerContext) {
  const rows = await ctx.db.select().from(agentReleases);
  const newest = rows.sort((a, b) => compareVersions(b.version, a.version))[0];
  if (!newest) return null;
  return {
    version: newest.version,
    sha256: newest.sha256,
    size: newest.size,
    file: path.join(releasesDir(ctx), `${newest.version}.tar.gz`),
  };
}

/** 409 (or 404 for a gone session) with the SshError's code; the message is the operator's. */
const httpOf = (err: SshError) =>
  new HttpError(err.code === SSH_ERROR_CODES.sessionGone ? 404 : 409, err.code, err.message);

/** Reads a multipart connect-ssh body (pemFile + formInfo) with the platform's form parser. */
async function parseKeyForm(request: FastifyRequest, payload: NodeJS.ReadableStream) {
  if (request.routeOptions.url !== CONNECT_PATH || request.method !== 'POST')
    throw new HttpError(415, 'Unsupported_media_type', 'This route takes JSON.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > SSH_KEY_MAX_BYTES + 8192)
      throw new HttpError(413, 'Payload_too_large', 'The key file is too large.');
    chunks.push(chunk);
  }
  let form: FormData;
  try {
    form = await new Response(Buffer.concat(chunks), {
      headers: { 'content-type': String(request.headers['content-type']) },
    }).formData();
  } catch {
    throw badRequest('The form cannot be read (multipart/form-data with pemFile and formInfo).');
  }
  const pem = form.get('pemFile');
  const info = form.get('formInfo');
  return {
    pemFile: typeof pem === 'string' ? pem : pem ? await pem.text() : undefined,
    formInfo: typeof info === 'string' ? info : info ? await info.text() : undefined,
  };
}

export const sshInstallHandlers: HandlersOf<typeof sshInstallRoutes> = (ctx, app) => {
  const sessions = new SshSessions(ctx.db);
  app.addHook('onClose', async () => sessions.closeAll());
  if (!app.hasContentTypeParser('multipart/form-data'))
    app.addContentTypeParser(
      'multipart/form-data',
      async (request: FastifyRequest, payload: NodeJS.ReadableStream) => parseKeyForm(request, payload),
    );

  const ownDevice = async (request: FastifyRequest, id: string) => {
    const device = await findOwnDevice(ctx.db, userOf(request).id, id);
    if (!device) throw notFound('Device');
    return device;
  };

  return {
    'sshInstall.createDevice': async ({ body }, request) => {
      const [row] = await ctx.db
        .insert(devices)
        .values({ ownerId: userOf(request).id, label: body.label, deviceId: newDevicePeerId() })
        .returning();
      if (!row) throw new Error('device insert returned nothing');
      return { id: row.id, device_id: row.deviceId, label: row.label };
    },

    'sshInstall.connect': async ({ body }, request) => {
      const user = userOf(request);
      let target: SshKeyFormInfo;
      let secret: { password: string } | { privateKey: string; passphrase?: string };
      if ('pemFile' in body) {
        let info: unknown;
        try {
          info = JSON.parse(body.formInfo);
        } catch {
          throw badRequest('formInfo must be JSON text: { device_id, hostname, port, username }.');
        }
        const parsed = SshKeyFormInfo.safeParse(info);
        if (!parsed.success) throw badRequest(`formInfo: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
        target = parsed.data;
        secret = { privateKey: body.pemFile, passphrase: target.passphrase || undefined };
      } else {
        target = body;
        secret = { password: body.password };
      }
      const device = await ownDevice(request, target.device_id);
      try {
        const { session, pinnedNow } = await sessions.connect(
          {
            ownerId: user.id,
            host: target.hostname,
            port: target.port,
            username: target.username,
            ...secret,
          },
          device.id,
        );
        request.log.info(
          {
            device: device.deviceId,
            host: target.hostname,
            port: target.port,
            fingerprint: session.fingerprint,
          },
          'ssh install: connected',
        );
        return {
          ok: true as const,
          session_id: session.id,
          fingerprint: session.fingerprint,
          key_type: session.keyType,
          pinned_now: pinnedNow,
          message: SSH_TEXTS.connected,
        };
      } catch (err) {
        if (err instanceof SshError) throw httpOf(err);
        throw err;
      }
    },

    'sshInstall.command': async ({ body }, request, reply) => {
      const user = userOf(request);
      let session: SshSession;
      try {
        session = sessions.get(body.session_id, user.id);
      } catch (err) {
        throw err instanceof SshError ? httpOf(err) : err;
      }
      if (session.busy) throw new HttpError(409, SSH_ERROR_CODES.busy, 'Another step runs in this session.');
      if (body.process === 'restart-device' && body.payload.confirmed !== true)
        throw badRequest(
          'restart-device needs payload.confirmed = true (the operator confirmed the restart).',
        );
      const [device] = await ctx.db
        .select()
        .from(devices)
        .where(and(eq(devices.id, session.deviceRowId), eq(devices.ownerId, user.id)))
        .limit(1);
      if (!device) throw notFound('Device');
      const release =
        body.process === 'download-client' || body.process === 'install-client'
          ? await latestReleaseFile(ctx)
          : null;
      if ((body.process === 'download-client' || body.process === 'install-client') && !release)
        throw new HttpError(
          409,
          SSH_ERROR_CODES.noRelease,
          'No agent release is published: publish one first.',
        );
      session.busy = true;
      try {
        await runStep(ctx, sessions, session, body.process, { device, release, request, reply });
      } finally {
        session.busy = false;
      }
      return undefined as never;
    },

    'sshInstall.disconnect': async ({ body }, request) => {
      const s = (() => {
        try {
          return sessions.get(body.session_id, userOf(request).id);
        } catch {
          return null;
        }
      })();
      if (s) sessions.close(s.id);
      return { ok: true, message: SSH_TEXTS.disconnected };
    },

    'sshInstall.forgetHostKey': async ({ body }, request) => {
      const removed = await ctx.db
        .delete(sshHostKeys)
        .where(
          and(
            eq(sshHostKeys.ownerId, userOf(request).id),
            eq(sshHostKeys.host, body.hostname),
            eq(sshHostKeys.port, body.port),
          ),
        )
        .returning({ id: sshHostKeys.id });
      return { ok: true, removed: removed.length };
    },
  };
};

interface StepContext {
  device: typeof devices.$inferSelect;
  release: { version: string; sha256: string; size: number; file: string } | null;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** Runs one step, streaming NDJSON lines (output as it comes, then the result) to the reply. */
async function runStep(
  ctx: ServerContext,
  sessions: SshSessions,
  session: SshSession,
  process: SshProcess,
  { device, release, request, reply }: StepContext,
): Promise<void> {
  const started = performance.now();
  const t = () => Math.round(performance.now() - started);
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'application/x-ndjson; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  const write = (line: SshCommandLine) => {
    if (!res.destroyed) res.write(`${JSON.stringify(line)}\n`);
  };
  const facts: Record<string, string> = {};
  const lines: { stream: 'stdout' | 'stderr'; text: string }[] = [];
  const onLine = (stream: 'stdout' | 'stderr', text: string) => {
    const fact = scriptFact(text);
    if (fact) {
      facts[fact[0]] = fact[1];
      return;
    }
    lines.push({ stream, text });
    if (lines.length > 50) lines.shift();
    write({ type: 'output', stream, text, t: t() });
  };
  const finish = (
    ok: boolean,
    exitCode: number | null,
    code: string | null,
    message: string,
    data: Record<string, unknown> = {},
  ) => {
    write({
      type: 'result',
      result: { ok, exit_code: exitCode, code, message, data: { ...facts, ...data }, elapsed_ms: t() },
    });
    res.end();
  };
  try {
    let stdin: Buffer | string | undefined;
    const withPassword = session.password !== null;
    if (process === 'download-client' && release) stdin = await readFile(release.file);
    else if (process === 'register-token') {
      const server = (
        globalThis.process.env.SSH_INSTALL_SERVER_URL || `${request.protocol}://${request.host}`
      ).replace(/\/+$/, '');
      const token = await issueDeviceToken(ctx, device);
      stdin = `AGENT_SERVER=${server}\nAGENT_TOKEN=${token}\n`;
    } else if (readsPassword(process)) stdin = withPassword ? `${session.password}\n` : '';
    const script = scriptFor(process, {
      withPassword,
      release: release ?? undefined,
      agentSource: globalThis.process.env.SSH_INSTALL_AGENT_SOURCE || REPO_ROOT,
    });
    if (process === 'register-token') onLine('stdout', `Registering a new device token for ${device.label}`);
    const outcome = await sessions.exec(session, `sh -c ${shellArg(script)}`, {
      stdin,
      onLine,
      signal: abort.signal,
    });
    if (outcome.canceled) return finish(false, null, SSH_ERROR_CODES.canceled, 'The step was canceled.');
    // A real restart drops the connection before an exit status arrives: that is the restart happening.
    if (process === 'restart-device' && outcome.exitCode === null)
      return finish(true, null, null, 'The device is restarting.');
    if (outcome.exitCode !== 0) {
      const last = [...lines].reverse().find((l) => l.stream === 'stderr') ?? lines[lines.length - 1];
      const why =
        outcome.exitCode === null
          ? `ended by signal ${outcome.signal ?? 'unknown'}`
          : `exit code ${outcome.exitCode}`;
      return finish(
        false,
        outcome.exitCode,
        SSH_ERROR_CODES.stepFailed,
        last ? last.text : `The step failed (${why}).`,
        {
          installed: process === 'check-docker' ? false : undefined,
        },
      );
    }
    if (process === 'check-docker') return finish(true, 0, null, 'Docker is installed.', { installed: true });
    if (process === 'download-client' && release)
      return finish(true, 0, null, `edge-agent ${release.version} downloaded.`, {
        version: release.version,
        sha256: release.sha256,
      });
    if (process === 'start-client') {
      onLine('stdout', `Waiting for ${device.label} to come online`);
      const deadline = Date.now() + START_ONLINE_TIMEOUT_MS;
      while (!ctx.presence.isOnline(device.deviceId) && Date.now() < deadline && !abort.signal.aborted)
        await new Promise((r) => setTimeout(r, 200));
      if (abort.signal.aborted)
        return finish(false, null, SSH_ERROR_CODES.canceled, 'The step was canceled.');
      if (!ctx.presence.isOnline(device.deviceId)) {
        await sessions.exec(session, 'tail -n 15 "$HOME/.local/share/edge-agent/agent.log" 2>/dev/null', {
          onLine,
        });
        return finish(
          false,
          0,
          SSH_ERROR_CODES.stepFailed,
          `The client started but ${device.label} did not come online within ${START_ONLINE_TIMEOUT_MS / 1000} s.`,
        );
      }
      onLine('stdout', `${device.label} is online.`);
      return finish(true, 0, null, `${device.label} is online.`, { online: true });
    }
    return finish(true, 0, null, lines[lines.length - 1]?.text ?? 'Done.');
  } catch (err) {
    request.log.warn(
      { err: err instanceof Error ? err.message : String(err), process },
      'ssh install step failed',
    );
    if (err instanceof SshError) return finish(false, null, err.code, err.message);
    return finish(false, null, 'Internal_error', SSH_TEXTS.serverTrouble);
  }
}

/** Single-quotes a script as one sh argument. */
const shellArg = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
