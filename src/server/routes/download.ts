/**
 * Handlers of the download page (src/protocol/download.ts; spec §2 /download):
 *   GET  /api/download/info        → { release (newest or null), server, install_script }
 *   POST /api/download/devices     { label, kind } → the new device, its first token, the install commands;
 *                                  409 when the caller has a device of that name
 *   GET  /api/download/install.sh  → the POSIX sh install script for this server (no auth, no secret inside)
 * The server's origin is read from the request (Host and the protocol; X-Forwarded-Proto when present).
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { AGENT_NODE_MIN, installCommands, type downloadRoutes } from '../../protocol/download';
import { DEVICE_TOKEN_EXPIRY_S } from '../../protocol/constants';
import { compareVersions, type AgentRelease } from '../../protocol/software';
import type { ServerContext } from '../context';
import { userOf } from '../auth/guard';
import { agentReleases, devices } from '../db/schema';
import { HttpError } from '../errors';
import { newDevicePeerId } from '../seed';
import type { HandlersOf } from './register';
import { issueDeviceToken } from './devices';

/** The origin the caller reached this server at, e.g. http://127.0.0.1:8080. */
export function originOf(request: FastifyRequest): string {
  const forwarded = String(request.headers['x-forwarded-proto'] ?? '')
    .split(',')[0]!
    .trim();
  const protocol = forwarded === 'https' || forwarded === 'http' ? forwarded : request.protocol;
  const host = String(request.headers.host ?? '').replace(/[^A-Za-z0-9.:[\]-]/g, '');
  return `${protocol}://${host || '127.0.0.1'}`;
}

/** The newest published agent release (semver order), null when none. */
async function latestRelease(ctx: ServerContext): Promise<AgentRelease | null> {
  const rows = await ctx.db.select().from(agentReleases);
  const r = rows.sort((a, b) => compareVersions(b.version, a.version))[0];
  return r
    ? {
        id: r.id,
        version: r.version,
        file_name: r.fileName,
        size: r.size,
        sha256: r.sha256,
        notes: r.notes,
        created_at: r.createdAt.toISOString(),
      }
    : null;
}

/** Chipset id of a kind: §9 '0' is x86; the Jetson Orin's otherwise (as the demo's Jetson). */
const CHIPSET = { x86: '0', jetson: '23' } as const;

/** The install script for `server` (see src/protocol/download.ts for what it does). */
export function installScript(server: string): string {
  return `#!/bin/sh
# Edge AI device agent installer for ${server}
# Usage: curl -fsSL ${server}/api/download/install.sh | AGENT_TOKEN='<device token>' sh
# Environment: AGENT_TOKEN (required), EDGE_AGENT_HOME (default ~/.edge-agent), EDGE_AGENT_NO_START=1 (install only).
set -eu
SERVER='${server}'
HOME_DIR="\${EDGE_AGENT_HOME:-$HOME/.edge-agent}"
fail() { echo "edge-agent: $*" >&2; exit 1; }
[ -n "\${AGENT_TOKEN:-}" ] || fail "AGENT_TOKEN is not set: copy the command from the console's Download page."
for tool in curl tar sha256sum node; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is required but not installed."
done
NODE_VERSION=$(node -p 'process.versions.node')
node -e 'const [a,b,c]=process.versions.node.split(".").map(Number);const [x,y,z]="${AGENT_NODE_MIN}".split(".").map(Number);process.exit(a>x||(a===x&&(b>y||(b===y&&c>=z)))?0:1)' \\
  || fail "Node.js ${AGENT_NODE_MIN} or newer is required (found $NODE_VERSION)."
command -v ffmpeg >/dev/null 2>&1 || echo "edge-agent: ffmpeg not found: cameras will not stream until it is installed." >&2
command -v docker >/dev/null 2>&1 || echo "edge-agent: Docker not found: containers and inference engines need it." >&2
[ -f /etc/nv_tegra_release ] && echo "edge-agent: Jetson: $(head -n 1 /etc/nv_tegra_release)"
AUTH="Authorization: Token $AGENT_TOKEN"
META=$(curl -fsS -H "$AUTH" "$SERVER/api/agent-releases/latest") || fail "the server refused the token or cannot be reached."
field() { printf '%s' "$META" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const r=JSON.parse(s).release;if(!r)process.exit(3);process.stdout.write(String(r[process.argv[1]]))})' "$1"; }
VERSION=$(field version) || fail "the server publishes no agent release yet."
SHA256=$(field sha256)
case "$VERSION" in *[!0-9A-Za-z.+-]*|'') fail "unexpected version '$VERSION'." ;; esac
DEST="$HOME_DIR/releases/$VERSION"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "edge-agent: downloading agent $VERSION"
curl -fsS -H "$AUTH" -o "$TMP/bundle.tar.gz" "$SERVER/api/agent-releases/$VERSION/bundle" || fail "download failed."
GOT=$(sha256sum "$TMP/bundle.tar.gz" | cut -d ' ' -f 1)
[ "$GOT" = "$SHA256" ] || fail "sha256 mismatch: expected $SHA256, got $GOT."
echo "edge-agent: sha256 $GOT verified"
mkdir -p "$DEST"
tar -xzf "$TMP/bundle.tar.gz" -C "$DEST"
umask 077
printf 'AGENT_SERVER=%s\\nAGENT_TOKEN=%s\\n' "$SERVER" "$AGENT_TOKEN" > "$HOME_DIR/agent.env"
ln -sfn "$DEST" "$HOME_DIR/current"
echo "edge-agent: installed $VERSION in $DEST"
ENTRY=""
[ -f "$DEST/release.json" ] && ENTRY=$(node -e 'const r=require(process.argv[1]);process.stdout.write(typeof r.entry==="string"?r.entry:"")' "$DEST/release.json")
if [ -z "$ENTRY" ]; then
  echo "edge-agent: this release has no entry to start; from a checkout run: AGENT_TOKEN=… npm run agent -- --server $SERVER --backend host"
  exit 0
fi
case "$ENTRY" in /*|*..*) fail "unsafe entry '$ENTRY'." ;; esac
[ "\${EDGE_AGENT_NO_START:-}" = "1" ] && { echo "edge-agent: not started (EDGE_AGENT_NO_START=1)"; exit 0; }
echo "edge-agent: starting $ENTRY"
export AGENT_TOKEN
exec node "$DEST/$ENTRY" --server "$SERVER" --backend host
`;
}

export const downloadHandlers: HandlersOf<typeof downloadRoutes> = (ctx) => ({
  'download.info': async (_input, request) => {
    const server = originOf(request);
    return { release: await latestRelease(ctx), server, install_script: `${server}/api/download/install.sh` };
  },

  'download.createDevice': async ({ body }, request) => {
    const owner = userOf(request).id;
    const [taken] = await ctx.db
      .select({ id: devices.id })
      .from(devices)
      .where(and(eq(devices.ownerId, owner), eq(devices.label, body.label)))
      .limit(1);
    if (taken) throw new HttpError(409, 'Device_exists', 'You already have a device with this name.');
    const [device] = await ctx.db
      .insert(devices)
      .values({
        ownerId: owner,
        label: body.label,
        deviceId: newDevicePeerId(),
        chipsetId: CHIPSET[body.kind],
        jetpack: null,
        clientName: '',
      })
      .returning();
    const token = await issueDeviceToken(ctx, device!);
    return {
      device: { id: device!.id, device_id: device!.deviceId, label: device!.label, kind: body.kind },
      access_token: token,
      expires_in: DEVICE_TOKEN_EXPIRY_S,
      commands: installCommands(originOf(request), token, body.kind),
    };
  },

  'download.installScript': async (_input, request, reply) => {
    void reply
      .header('content-type', 'text/x-shellscript; charset=utf-8')
      .header('cache-control', 'no-store');
    return reply.send(installScript(originOf(request))) as never;
  },
});
