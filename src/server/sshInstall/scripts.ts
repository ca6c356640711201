/**
 * The shell scripts the SSH install runs on the target host, one per §7 ssh-command process (issue 12).
 * Each runs with `sh -c` as the SSH user, in that user's space only:
 *   - files: `~/.local/share/edge-agent/` (downloads, releases/<version>, `current` link, run.sh, the service
 *     scripts, agent.log) and `~/.config/edge-agent/agent.env` (AGENT_SERVER and AGENT_TOKEN, mode 0600);
 *   - PATH gets `~/.local/bin` and `~/bin` first (where a test host keeps its stand-ins, README "SSH install");
 *   - privileged steps call `sudo`: with a password session the script reads the password from its stdin
 *     into a shell variable and pipes it to `sudo -S` with printf (a builtin: never in a process's argv),
 *     with a key session `sudo -n` (passwordless sudo, or the step fails), as root no sudo at all.
 * Lines `EDGE_<NAME>=<value>` are facts for the server (scriptFacts), not shown as output.
 */
import type { SshProcess } from '../../protocol/sshInstall';

/** Facts a script needs beyond the process name. */
export interface ScriptInput {
  /** A password session: the script's stdin starts with the password line (sudo). */
  withPassword: boolean;
  /** download-client / install-client: the release version and its sha256. */
  release?: { version: string; sha256: string; size: number };
  /** install-client: the agent source checkout (this repository) to run when the bundle has no entry. */
  agentSource?: string;
}

/** Single-quotes `s` for sh. */
export const shQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

const PRELUDE = `set -u
export PATH="$HOME/.local/bin:$HOME/bin:$PATH"
EDGE_HOME="$HOME/.local/share/edge-agent"
EDGE_CONF="$HOME/.config/edge-agent"
`;

/** sudo_ for a password session (the password is the first stdin line), a key session, or root. */
const sudoPrelude = (withPassword: boolean) =>
  withPassword
    ? `IFS= read -r EDGE_PW || EDGE_PW=''
sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else printf '%s\\n' "$EDGE_PW" | sudo -S -p '' "$@"; fi; }
`
    : `sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }
`;

const checkGpu = `if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; then
  echo "EDGE_GPU=nvidia"
elif [ -f /etc/nv_tegra_release ]; then
  head -n 1 /etc/nv_tegra_release; echo "NVIDIA Jetson found."; echo "EDGE_GPU=jetson"
else
  echo "No NVIDIA GPU found (no nvidia-smi, no /etc/nv_tegra_release): the device will run without GPU acceleration."
  echo "EDGE_GPU=none"
fi
`;

const checkDocker = `if docker --version 2>/dev/null; then
  echo "EDGE_DOCKER=installed"
else
  echo "Docker is not installed: it will be installed."; echo "EDGE_DOCKER=missing"; exit 1
fi
`;

const installDocker = `echo "Downloading Docker's convenience script from https://get.docker.com"
tmp="$(mktemp)"
if ! curl -fsSL https://get.docker.com -o "$tmp"; then echo "Could not download https://get.docker.com" >&2; rm -f "$tmp"; exit 1; fi
echo "Running it with sudo (installs Docker Engine from Docker's apt/yum repository)"
sudo_ sh "$tmp"; rc=$?; rm -f "$tmp"
if [ "$rc" -ne 0 ]; then echo "The Docker install script failed (exit $rc)." >&2; exit "$rc"; fi
sudo_ usermod -aG docker "$(id -un)" || { echo "Could not add $(id -un) to the docker group." >&2; exit 1; }
echo "Docker installed; $(id -un) joins the docker group after a restart."
echo "EDGE_RESTART_NEEDED=1"
`;

const checkDockerPrivileged = `if docker info >/dev/null 2>&1; then
  echo "$(id -un) may use Docker without sudo."
  echo "EDGE_RESTART_NEEDED=0"
elif id -nG | tr ' ' '\\n' | grep -qx docker; then
  echo "$(id -un) is in the docker group; the Docker daemon will answer after the restart."
  echo "EDGE_RESTART_NEEDED=1"
else
  echo "Adding $(id -un) to the docker group (sudo)"
  sudo_ usermod -aG docker "$(id -un)" || { echo "Could not add $(id -un) to the docker group." >&2; exit 1; }
  echo "Done: it takes effect after a restart."
  echo "EDGE_RESTART_NEEDED=1"
fi
`;

const installRequirements = `missing=""
for c in tar sha256sum setsid; do command -v "$c" >/dev/null 2>&1 || missing="$missing $c"; done
if [ -n "$missing" ]; then
  echo "Installing:$missing"
  if command -v apt-get >/dev/null 2>&1; then sudo_ apt-get install -y coreutils tar util-linux || exit 1
  else echo "Missing tools:$missing (no apt-get here: install them and retry)" >&2; exit 1; fi
fi
if ! command -v node >/dev/null 2>&1; then
  echo "Node.js 20 or newer is required by the device client: install it (nodejs.org or NodeSource) and retry from this step." >&2; exit 1
fi
major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$major" -lt 20 ]; then
  echo "Node.js $(node --version) is too old: the device client needs 20 or newer." >&2; exit 1
fi
echo "node $(node --version), tar, sha256sum and setsid are present."
`;

function downloadClient(r: NonNullable<ScriptInput['release']>): string {
  const v = shQuote(r.version);
  return `mkdir -p "$EDGE_HOME/downloads" || exit 1
f="$EDGE_HOME/downloads/edge-agent-"${v}".tar.gz"
echo "Receiving edge-agent "${v}" (${r.size} bytes) from the console server"
cat > "$f.part" || { echo "Could not write $f.part" >&2; exit 1; }
got="$(sha256sum "$f.part" | cut -d ' ' -f 1)"
if [ "$got" != ${shQuote(r.sha256)} ]; then echo "SHA-256 mismatch: got $got" >&2; rm -f "$f.part"; exit 1; fi
mv "$f.part" "$f" && echo "Saved $f ($(wc -c < "$f") bytes), SHA-256 verified."
`;
}

function installClient(r: NonNullable<ScriptInput['release']>, agentSource: string): string {
  const v = shQuote(r.version);
  const src = shQuote(agentSource);
  return `R="$EDGE_HOME/releases/"${v}
mkdir -p "$EDGE_HOME/releases" "$EDGE_CONF" || exit 1
rm -rf "$R.tmp" && mkdir -p "$R.tmp" || exit 1
tar -xzf "$EDGE_HOME/downloads/edge-agent-"${v}".tar.gz" -C "$R.tmp" --no-same-owner || { echo "Could not unpack the bundle." >&2; exit 1; }
rm -rf "$R" && mv "$R.tmp" "$R" && ln -sfn "$R" "$EDGE_HOME/current" || exit 1
echo "Unpacked into $R"
entry="$(sed -n 's/.*"entry"[[:space:]]*:[[:space:]]*"\\([^"]*\\)".*/\\1/p' "$R/release.json" 2>/dev/null | head -n 1)"
if [ -n "$entry" ] && [ -f "$R/$entry" ]; then
  echo "The bundle's entry $entry is the client."
  launch="exec node \\"\\$EDGE_HOME/current/$entry\\" --backend host"
elif [ -f ${src}/src/agent/main.ts ] && [ -d ${src}/node_modules/tsx ]; then
  echo "The bundle has no runnable entry: the client runs the agent from ${agentSource} (node --import tsx src/agent/main.ts)."
  launch="cd ${src} && exec node --import tsx src/agent/main.ts --backend host"
else
  echo "The bundle has no runnable entry and no agent source is at ${agentSource}: nothing can run the client." >&2; exit 1
fi
[ -x "$EDGE_HOME/stop.sh" ] && "$EDGE_HOME/stop.sh" >/dev/null 2>&1
cat > "$EDGE_HOME/run.sh" <<EOF
#!/bin/sh
EDGE_HOME="\\$HOME/.local/share/edge-agent"
set -a; . "\\$HOME/.config/edge-agent/agent.env"; set +a
$launch
EOF
chmod 0755 "$EDGE_HOME/run.sh"
if systemctl --user show-environment >/dev/null 2>&1; then
  mkdir -p "$HOME/.config/systemd/user"
  cat > "$HOME/.config/systemd/user/edge-agent.service" <<EOF
[Unit]
Description=Edge AI device client
[Service]
ExecStart=$EDGE_HOME/run.sh
Restart=always
RestartSec=1
RestartPreventExitStatus=2
[Install]
WantedBy=default.target
EOF
  systemctl --user daemon-reload && systemctl --user enable edge-agent.service || exit 1
  printf '#!/bin/sh\\nsystemctl --user restart edge-agent.service\\n' > "$EDGE_HOME/start.sh"
  printf '#!/bin/sh\\nsystemctl --user stop edge-agent.service\\n' > "$EDGE_HOME/stop.sh"
  chmod 0755 "$EDGE_HOME/start.sh" "$EDGE_HOME/stop.sh"
  echo "Installed as the systemd user unit edge-agent.service (enabled)."
  echo "EDGE_SERVICE=systemd-user"
else
  cat > "$EDGE_HOME/supervise.sh" <<'EOF'
#!/bin/sh
# Restarts the client 1 s after it exits, except after exit 2 (its token was refused: restarting cannot help).
EDGE_HOME="$HOME/.local/share/edge-agent"
echo $$ > "$EDGE_HOME/supervisor.pid"
trap 'kill "$child" 2>/dev/null; wait "$child"; rm -f "$EDGE_HOME/supervisor.pid" "$EDGE_HOME/agent.pid"; exit 0' TERM INT
while :; do
  "$EDGE_HOME/run.sh" >> "$EDGE_HOME/agent.log" 2>&1 &
  child=$!; echo "$child" > "$EDGE_HOME/agent.pid"
  wait "$child"; rc=$?
  [ "$rc" -eq 2 ] && { rm -f "$EDGE_HOME/supervisor.pid" "$EDGE_HOME/agent.pid"; exit 2; }
  sleep 1
done
EOF
  cat > "$EDGE_HOME/start.sh" <<'EOF'
#!/bin/sh
EDGE_HOME="$HOME/.local/share/edge-agent"
if [ -f "$EDGE_HOME/supervisor.pid" ] && kill -0 "$(cat "$EDGE_HOME/supervisor.pid")" 2>/dev/null; then
  kill -TERM "$(cat "$EDGE_HOME/supervisor.pid")"; sleep 1
fi
setsid "$EDGE_HOME/supervise.sh" < /dev/null > /dev/null 2>&1 &
EOF
  cat > "$EDGE_HOME/stop.sh" <<'EOF'
#!/bin/sh
EDGE_HOME="$HOME/.local/share/edge-agent"
[ -f "$EDGE_HOME/supervisor.pid" ] && kill -TERM "$(cat "$EDGE_HOME/supervisor.pid")" 2>/dev/null
exit 0
EOF
  chmod 0755 "$EDGE_HOME/supervise.sh" "$EDGE_HOME/start.sh" "$EDGE_HOME/stop.sh"
  if command -v crontab >/dev/null 2>&1; then
    ( crontab -l 2>/dev/null | grep -v 'edge-agent/start.sh'; echo "@reboot $EDGE_HOME/start.sh" ) | crontab - \\
      && echo "Starts at boot through an @reboot crontab line."
  else
    echo "No systemd user session and no crontab: the client will not start by itself after a reboot."
  fi
  echo "Installed as a supervised background process (pid file $EDGE_HOME/supervisor.pid)."
  echo "EDGE_SERVICE=supervised"
fi
`;
}

const registerToken = `umask 077
mkdir -p "$EDGE_CONF" || exit 1
cat > "$EDGE_CONF/agent.env.tmp" && mv "$EDGE_CONF/agent.env.tmp" "$EDGE_CONF/agent.env" || { echo "Could not write $EDGE_CONF/agent.env" >&2; exit 1; }
echo "Device token saved to $EDGE_CONF/agent.env (mode 0600)."
`;

const restartDevice = `echo "Restarting the device"
sudo_ systemctl reboot || sudo_ reboot || { echo "The restart was refused." >&2; exit 1; }
echo "Restart requested."
`;

const startClient = `[ -x "$EDGE_HOME/start.sh" ] || { echo "The client is not installed (no $EDGE_HOME/start.sh)." >&2; exit 1; }
"$EDGE_HOME/start.sh" || exit 1
echo "The client was started."
`;

/** The shell text of `process` (run as `sh -c <text>`). register-token / download-client read their stdin. */
export function scriptFor(process: SshProcess, input: ScriptInput): string {
  const head = PRELUDE + sudoPrelude(input.withPassword);
  const need = <T>(v: T | undefined, what: string): T => {
    if (v === undefined) throw new Error(`${process}: ${what} is required`);
    return v;
  };
  switch (process) {
    case 'check-gpu':
      return head + checkGpu;
    case 'check-docker':
      return head + checkDocker;
    case 'install-docker':
      return head + installDocker;
    case 'check-docker-privileged':
      return head + checkDockerPrivileged;
    case 'install-requirements':
      return head + installRequirements;
    case 'download-client':
      return PRELUDE + downloadClient(need(input.release, 'release'));
    case 'install-client':
      return head + installClient(need(input.release, 'release'), need(input.agentSource, 'agentSource'));
    case 'register-token':
      return PRELUDE + registerToken;
    case 'restart-device':
      return head + restartDevice;
    case 'start-client':
      return head + startClient;
  }
}

/** Steps whose scripts read the password line first (they call sudo_). */
export const readsPassword = (process: SshProcess): boolean =>
  process !== 'download-client' && process !== 'register-token';

/** The `EDGE_<NAME>=<value>` fact of an output line, or null for a line to show. */
export function scriptFact(line: string): [string, string] | null {
  const m = /^EDGE_([A-Z_]+)=(.*)$/.exec(line);
  return m ? [m[1]!.toLowerCase(), m[2]!] : null;
}
