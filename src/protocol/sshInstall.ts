/**
 * The SSH install feature's contract (issue 12; spec §3 "SSH install", §4 "SSH install", §7 `connect-ssh`,
 * `ssh-command`, §8 SSH texts, §2 unload warning).
 *
 * Flow: the operator creates the device record (`ssh-install/device`, ours: the spec's connect-ssh names a
 * device_id, so the record exists first), then `connect-ssh` (hostname, port, username and a password; or
 * multipart with `pemFile` and `formInfo`) opens an SSH session held by the server (credentials in memory
 * for that session only, never stored or logged; the host key pinned on first use), then one `ssh-command`
 * per step, whose answer is NDJSON streamed as the host prints (SshCommandLine), then `ssh-disconnect`.
 */
import { z } from 'zod';
import { defineRoutes } from './route';

/** §7 ssh-command process values, in the order the install runs them (restart-device after register-token). */
export const SSH_PROCESSES = [
  'check-gpu',
  'check-docker',
  'install-docker',
  'check-docker-privileged',
  'install-requirements',
  'download-client',
  'install-client',
  'register-token',
  'restart-device',
  'start-client',
] as const;
export const SshProcess = z.enum(SSH_PROCESSES);
export type SshProcess = z.infer<typeof SshProcess>;

/** §8 SSH texts (exact wording). `installFailed` takes {device}. */
export const SSH_TEXTS = {
  serverTrouble: 'SSH connection has been failed. Server got itself in trouble.',
  connectFailed: 'SSH connection has been failed.',
  connected: 'Successfully connected via SSH',
  disconnected: 'Disconnected.',
  installFailed: 'Installation to {device} has failed',
  installSucceeded: 'Installation successful',
  /** §2 unload warning while an install runs. */
  unloadWarning: 'SSH installing process is running. Would you like to continue?',
} as const;

/**
 * Error codes of connect-ssh and ssh-command (searchable, Netdata-kickstart style; README "SSH install"):
 * connection — SSH_UNREACHABLE (no TCP connection / DNS), SSH_TIMEOUT (no handshake in SSH_CONNECT_TIMEOUT_MS),
 * SSH_AUTH_FAILED (password or key refused), SSH_KEY_INVALID (the PEM file cannot be read),
 * SSH_HOST_KEY_CHANGED (another key than the pinned one), SSH_SESSION_GONE (no such session: disconnected or
 * expired); steps — SSH_STEP_FAILED (the step's command exited non-zero), SSH_STEP_CANCELED,
 * SSH_NO_RELEASE (no agent release published), SSH_SUDO_REFUSED (sudo needs a password the session has not).
 */
export const SSH_ERROR_CODES = {
  unreachable: 'SSH_UNREACHABLE',
  timeout: 'SSH_TIMEOUT',
  authFailed: 'SSH_AUTH_FAILED',
  keyInvalid: 'SSH_KEY_INVALID',
  hostKeyChanged: 'SSH_HOST_KEY_CHANGED',
  sessionGone: 'SSH_SESSION_GONE',
  stepFailed: 'SSH_STEP_FAILED',
  canceled: 'SSH_STEP_CANCELED',
  noRelease: 'SSH_NO_RELEASE',
  busy: 'SSH_SESSION_BUSY',
} as const;

/** Time allowed for the TCP connection and SSH handshake, ms. */
export const SSH_CONNECT_TIMEOUT_MS = 10_000;
/** An SSH session unused this long is closed by the server, ms (10 min). */
export const SSH_SESSION_IDLE_MS = 10 * 60_000;
/** Longest a step may run, ms (10 min: a real Docker install downloads packages). */
export const SSH_STEP_TIMEOUT_MS = 10 * 60_000;
/** Largest private key file accepted, bytes. */
export const SSH_KEY_MAX_BYTES = 16 * 1024;

const Hostname = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9]([A-Za-z0-9.:-]*[A-Za-z0-9])?$/, 'hostname must be a host name or an IP address')
  .meta({ examples: ['127.0.0.1', 'jetson.local'] });
const Username = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[a-z_][a-z0-9_.-]*\$?$/i, 'username must be a POSIX user name')
  .meta({ examples: ['edge', 'ubuntu'] });
const SessionId = z.uuid().meta({ examples: ['6f1d0c1e-3b9f-4a51-9a9e-2f4d3c1b0a99'] });

/** The connection facts shared by both connect forms (device_id: the device's peer id or row id). */
export const SshTarget = z.object({
  device_id: z.string().min(1).max(200),
  hostname: Hostname,
  port: z.number().int().min(1).max(65535).default(22),
  username: Username,
});

/** connect-ssh with a password (JSON). */
export const SshConnectPassword = SshTarget.extend({ password: z.string().min(1).max(1024) }).strict();
/**
 * connect-ssh with a key: multipart/form-data with `pemFile` (an OpenSSH or PEM private key file, at most
 * SSH_KEY_MAX_BYTES) and `formInfo` (JSON text of SshTarget plus an optional `passphrase`). The server parses
 * the form into this shape before validation.
 */
export const SshConnectKey = z
  .object({
    pemFile: z.string().min(1).max(SSH_KEY_MAX_BYTES),
    formInfo: z.string().min(2).max(4096),
  })
  .strict();
export const SshKeyFormInfo = SshTarget.extend({ passphrase: z.string().max(1024).optional() });
export type SshKeyFormInfo = z.infer<typeof SshKeyFormInfo>;

/**
 * connect-ssh answer: ok; session_id for ssh-command; fingerprint of the host key (`SHA256:…`), key_type,
 * pinned_now (true: first use, pinned by this connection); message §8 "Successfully connected via SSH".
 */
export const SshConnectAnswer = z.object({
  ok: z.literal(true),
  session_id: z.string(),
  fingerprint: z.string(),
  key_type: z.string(),
  pinned_now: z.boolean(),
  message: z.string(),
});
export type SshConnectAnswer = z.infer<typeof SshConnectAnswer>;

/**
 * ssh-command body. payload: per process — restart-device `{ confirmed: true }` (required), others `{}`.
 */
export const SshCommandBody = z.object({
  session_id: SessionId,
  process: SshProcess,
  payload: z.record(z.string(), z.unknown()).default({}),
});

/**
 * The result of one step. ok: the command succeeded (check-docker: Docker is usable); exit_code: the remote
 * exit status (null: not run, killed or canceled); code/message: the error when not ok (SSH_ERROR_CODES, the
 * message the last output line or ours); data: facts the install needs (check-docker: { installed },
 * check-docker-privileged / install-docker: { restart_needed }, download-client: { version, sha256 },
 * install-client: { service: 'systemd-user' | 'supervised' }, start-client: { online }); elapsed_ms.
 */
export const SshStepResult = z.object({
  ok: z.boolean(),
  exit_code: z.number().int().nullable(),
  code: z.string().nullable(),
  message: z.string(),
  data: z.record(z.string(), z.unknown()),
  elapsed_ms: z.number().min(0),
});
export type SshStepResult = z.infer<typeof SshStepResult>;

/**
 * One NDJSON line of the ssh-command answer (Content-Type application/x-ndjson): zero or more `output`
 * lines (stream stdout|stderr, text one line without its newline, t ms since the step started) as the host
 * prints them, then exactly one `result`.
 */
export const SshCommandLine = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('output'),
    stream: z.enum(['stdout', 'stderr']),
    text: z.string(),
    t: z.number(),
  }),
  z.object({ type: z.literal('result'), result: SshStepResult }),
]);
export type SshCommandLine = z.infer<typeof SshCommandLine>;

export const sshInstallRoutes = defineRoutes({
  'sshInstall.createDevice': {
    method: 'POST',
    path: '/api/ssh-install/device',
    auth: 'user',
    summary:
      'Creates a device record for an SSH install (ours; connect-ssh names a device_id). Answers its row id and peer id.',
    body: z.object({
      label: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .meta({ examples: ['Lab box'] }),
    }),
    answer: z.object({ id: z.string(), device_id: z.string(), label: z.string() }),
  },
  'sshInstall.connect': {
    method: 'POST',
    path: '/api/connect-ssh',
    auth: 'user',
    summary:
      'Opens an SSH session to the host (password as JSON, or multipart pemFile + formInfo); pins the host key on first use. 409 SSH_* on a refused connection.',
    body: z.union([SshConnectPassword, SshConnectKey]),
    answer: SshConnectAnswer,
    errors: [404, 409],
  },
  'sshInstall.command': {
    method: 'POST',
    path: '/api/ssh-command',
    auth: 'user',
    summary:
      'Runs one install step in the session; the answer is NDJSON (SshCommandLine) streamed as the host prints, ending with the result. Closing the request cancels the step.',
    body: SshCommandBody,
    answer: z.unknown(),
    errors: [404, 409],
  },
  'sshInstall.disconnect': {
    method: 'POST',
    path: '/api/ssh-disconnect',
    auth: 'user',
    summary: 'Closes the SSH session (forgetting its credentials). Answers ok even when it was already gone.',
    body: z.object({ session_id: SessionId }),
    answer: z.object({ ok: z.boolean(), message: z.string() }),
  },
  'sshInstall.forgetHostKey': {
    method: 'POST',
    path: '/api/ssh-host-keys/forget',
    auth: 'user',
    summary: "Forgets the caller's pinned host key of hostname:port (after a host key changed on purpose).",
    body: z.object({ hostname: Hostname, port: z.number().int().min(1).max(65535).default(22) }),
    answer: z.object({ ok: z.boolean(), removed: z.number().int() }),
  },
});
