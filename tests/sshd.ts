/**
 * A throwaway SSH test host for the SSH install (issue 12): Debian's OpenSSH server (`/usr/sbin/sshd`) started
 * on a free loopback port with its own host key, config and authorized_keys in a temporary folder (the
 * machine's own sshd and its config are not touched), and a throwaway user created for it (`useradd`, a
 * random password set with `chpasswd`, an ed25519 client key), removed again by `dispose()`.
 *
 * Steps that would change the machine beyond that user run through the same command path against stand-ins in
 * the user's `~/bin` (first on the install scripts' PATH; README "SSH install"):
 *   - `sudo`   checks the password like `sudo -S` (or refuses `-n` unless `passwordlessSudo`), logs the call
 *              to `~/.edge-standin/sudo.log`, emulates `usermod -aG docker` (a marker file) and
 *              `systemctl reboot` / `reboot` (the client stops, then starts again 2 s later as at boot), and runs
 *              anything else as the user;
 *   - `curl`   serves only https://get.docker.com: a stand-in install script that prints install lines over
 *              ~2 s and puts the stand-in `docker` in ~/bin;
 *   - `docker` (when `docker: true`, or after the stand-in install) answers `--version`, and `info` once the
 *              user is "in the docker group"; without `docker` it answers like a missing command (exit 127),
 *              hiding any docker CLI the CI machine has.
 * Needs root (useradd, password login); `canRunTestHost()` says whether it can run here.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const SSHD = '/usr/sbin/sshd';

/** The test host can run: root (useradd, password login) and Debian's sshd installed. */
export const canRunTestHost = (): boolean => process.getuid?.() === 0 && existsSync(SSHD);

export interface TestHostOptions {
  /** The stand-in docker is installed from the start (else check-docker fails and install-docker runs). */
  docker?: boolean;
  /** The user is "in the docker group" from the start. Default: same as `docker`. */
  dockerGroup?: boolean;
  /** The stand-in sudo accepts `sudo -n` (a key session's passwordless sudo). Default false. */
  passwordlessSudo?: boolean;
  /** More stand-ins for ~/bin: name → sh script text (e.g. an `nvidia-smi` for the benchmark). */
  extraBin?: Record<string, string>;
}

export interface TestHost {
  host: '127.0.0.1';
  port: number;
  user: string;
  uid: number;
  home: string;
  password: string;
  /** The client's private key (OpenSSH format). */
  privateKey: string;
  /** sha256 fingerprint of the current host key, `SHA256:…` */
  fingerprint(): string;
  /** Restarts sshd on the same port with a new host key (a "host key that changed"). */
  changeHostKey(): Promise<void>;
  /** Runs a shell command as the throwaway user (test set-up: chmod, reading files). */
  runAsUser(script: string): string;
  /** What the stand-in sudo was asked to run. */
  sudoLog(): string[];
  /** Stops the installed client (if any), sshd, removes the user and the folder. */
  dispose(): Promise<void>;
}

/** Pids of the processes of `uid` (ps), empty when none. */
function pidsOf(uid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '-u', String(uid)])
      .toString()
      .split('\n')
      .map((l) => Number(l.trim()))
      .filter((n) => n > 1);
  } catch {
    return [];
  }
}

const killPid = (pid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`sshd did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const STANDIN_SUDO = `#!/bin/sh
# Test-host stand-in for sudo (tests/sshd.ts): no privilege, same interface.
S="$HOME/.edge-standin"; mkdir -p "$S"
stdin=""; nopw=""
while [ $# -gt 0 ]; do
  case "$1" in -S) stdin=1; shift;; -n) nopw=1; shift;; -p) shift 2;; --) shift; break;; -*) shift;; *) break;; esac
done
if [ -n "$stdin" ]; then
  IFS= read -r pw || pw=""
  [ "$pw" = "$(cat "$S/password")" ] || { echo "sudo: 1 incorrect password attempt" >&2; exit 1; }
elif [ -n "$nopw" ] && [ ! -f "$S/nopasswd" ]; then
  echo "sudo: a password is required" >&2; exit 1
fi
echo "$*" >> "$S/sudo.log"
if [ "$1" = usermod ] && [ "$2" = -aG ] && [ "$3" = docker ]; then touch "$S/docker-group"; exit 0; fi
if [ "$1" = reboot ] || { [ "$1" = systemctl ] && [ "$2" = reboot ]; }; then
  echo "(test host: simulated reboot: the client stops, then starts again as at boot)"
  [ -x "$HOME/.local/share/edge-agent/stop.sh" ] && "$HOME/.local/share/edge-agent/stop.sh"
  if [ -x "$HOME/.local/share/edge-agent/start.sh" ]; then
    setsid sh -c 'sleep 2; exec "$HOME/.local/share/edge-agent/start.sh"' < /dev/null > /dev/null 2>&1 &
  fi
  exit 0
fi
exec "$@"
`;

const STANDIN_DOCKER = `#!/bin/sh
# Test-host stand-in for the docker CLI (tests/sshd.ts).
S="$HOME/.edge-standin"
case "\${1:-}" in
  --version) echo "Docker version 27.3.1, build ce12230 (test host stand-in)";;
  info) [ -f "$S/docker-group" ] || { echo "permission denied while trying to connect to the Docker daemon socket" >&2; exit 1; }
        echo "Server Version: 27.3.1";;
  *) echo "docker (test host stand-in): \${1:-} is not emulated" >&2; exit 1;;
esac
`;

const STANDIN_NO_DOCKER = `#!/bin/sh
# Test-host stand-in for "docker is not installed" (tests/sshd.ts): the stand-in install replaces it.
echo "sh: 1: docker: not found" >&2
exit 127
`;

const STANDIN_GET_DOCKER = `#!/bin/sh
# Stand-in for https://get.docker.com on the test host (tests/sshd.ts).
for l in "# Executing docker install script" "+ apt-get update -qq" "+ apt-get install -y -qq docker-ce docker-ce-cli containerd.io" \\
  "Setting up containerd.io" "Setting up docker-ce" "+ systemctl enable --now docker"; do
  echo "$l"; sleep 0.35
done
cp "$HOME/.edge-standin/docker.standin" "$HOME/bin/docker" && chmod 0755 "$HOME/bin/docker"
echo "Docker installed (test host stand-in)."
`;

const STANDIN_CURL = `#!/bin/sh
# Test-host stand-in for curl (tests/sshd.ts): serves https://get.docker.com only.
out=""; url=""
while [ $# -gt 0 ]; do case "$1" in -o) out="$2"; shift 2;; -*) shift;; *) url="$1"; shift;; esac; done
[ "$url" = "https://get.docker.com" ] || { echo "curl (test host stand-in): only https://get.docker.com is served" >&2; exit 22; }
if [ -n "$out" ]; then cp "$HOME/.edge-standin/get-docker.sh" "$out"; else cat "$HOME/.edge-standin/get-docker.sh"; fi
`;

/** Starts a test host. Needs root (see canRunTestHost). */
export async function startTestHost(options: TestHostOptions = {}): Promise<TestHost> {
  if (!canRunTestHost()) throw new Error('the SSH test host needs root and /usr/sbin/sshd');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'edge-sshd-'));
  chmodSync(dir, 0o755);
  const user = `edgessh${randomBytes(4).toString('hex')}`;
  const home = path.join(dir, 'home');
  const password = `pw-${randomBytes(9).toString('base64url')}`;
  execFileSync('useradd', ['--create-home', '--home-dir', home, '--shell', '/bin/sh', user]);
  execFileSync('chpasswd', { input: `${user}:${password}\n` });
  const uid = Number(execFileSync('id', ['-u', user]).toString().trim());
  const gid = Number(execFileSync('id', ['-g', user]).toString().trim());

  const keyFile = path.join(dir, 'client_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', `${user}@test`, '-f', keyFile]);
  writeFileSync(path.join(dir, 'authorized_keys'), readFileSync(`${keyFile}.pub`), { mode: 0o644 });
  const hostKey = path.join(dir, 'host_ed25519');
  const newHostKey = () => {
    rmSync(hostKey, { force: true });
    rmSync(`${hostKey}.pub`, { force: true });
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
  };
  newHostKey();

  // Stand-ins in ~/bin, owned by the user.
  const bin = path.join(home, 'bin');
  const standin = path.join(home, '.edge-standin');
  mkdirSync(bin, { recursive: true });
  mkdirSync(standin, { recursive: true });
  const put = (file: string, text: string, mode: number) => {
    writeFileSync(file, text, { mode });
    chownSync(file, uid, gid);
  };
  put(path.join(bin, 'sudo'), STANDIN_SUDO, 0o755);
  put(path.join(bin, 'curl'), STANDIN_CURL, 0o755);
  put(path.join(standin, 'docker.standin'), STANDIN_DOCKER, 0o644);
  put(path.join(standin, 'get-docker.sh'), STANDIN_GET_DOCKER, 0o644);
  put(path.join(standin, 'password'), `${password}\n`, 0o600);
  // Without docker, ~/bin/docker stands for "not installed" even where the CI machine has a docker CLI.
  put(path.join(bin, 'docker'), options.docker ? STANDIN_DOCKER : STANDIN_NO_DOCKER, 0o755);
  if (options.dockerGroup ?? options.docker) put(path.join(standin, 'docker-group'), '', 0o644);
  if (options.passwordlessSudo) put(path.join(standin, 'nopasswd'), '', 0o644);
  for (const [name, text] of Object.entries(options.extraBin ?? {})) put(path.join(bin, name), text, 0o755);
  for (const d of [bin, standin]) chownSync(d, uid, gid);

  const port = await freePort();
  const config = path.join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      'PasswordAuthentication yes',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'UsePAM no',
      'StrictModes no',
      'PermitRootLogin no',
      `AllowUsers ${user}`,
      'MaxStartups 50',
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 }); // sshd's privilege separation folder

  let sshd: ChildProcess | null = null;
  const startSshd = async () => {
    sshd = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    sshd.stderr?.on('data', (d: Buffer) => {
      if (process.env.SSHD_LOGS === '1') process.stderr.write(`sshd: ${d.toString()}`);
    });
    await waitForPort(port);
  };
  const stopSshd = async () => {
    const p = sshd;
    sshd = null;
    if (!p || p.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      p.once('exit', () => resolve());
      p.kill('SIGTERM');
    });
  };
  await startSshd();

  const fingerprint = () =>
    execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${hostKey}.pub`])
      .toString()
      .split(' ')[1] ?? '';

  const runAsUser = (script: string) =>
    execFileSync('/bin/sh', ['-c', script], {
      cwd: home,
      uid,
      gid,
      env: { HOME: home, PATH: '/usr/bin:/bin' },
    }).toString();

  /** Stops the client the install started, by its pid files. */
  const stopClient = () => {
    const edge = path.join(home, '.local/share/edge-agent');
    for (const f of ['supervisor.pid', 'agent.pid']) {
      const file = path.join(edge, f);
      if (!existsSync(file)) continue;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (pid > 1) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
    }
  };

  return {
    host: '127.0.0.1',
    port,
    user,
    uid,
    home,
    password,
    privateKey: readFileSync(keyFile, 'utf8'),
    fingerprint,
    async changeHostKey() {
      await stopSshd();
      newHostKey();
      await startSshd();
    },
    runAsUser,
    sudoLog: () => {
      const f = path.join(standin, 'sudo.log');
      return existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter(Boolean) : [];
    },
    async dispose() {
      stopClient();
      await stopSshd();
      // The user's processes (the client, tsx's esbuild) end with the TERM above; userdel refuses while any
      // runs. Whatever of this throwaway user still runs after 10 s is killed, pid by pid.
      for (let i = 0; i < 60; i++) {
        try {
          execFileSync('userdel', [user], { stdio: 'ignore' });
          break;
        } catch {
          if (i === 50) for (const pid of pidsOf(uid)) killPid(pid, 'SIGKILL');
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
