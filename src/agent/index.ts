/**
 * The device agent (ARCHITECTURE "agent", team brief "Device agent"): registers with the server and the
 * signalling server under its device_id, answers device commands over grant-checked data connections and
 * sends camera video as WebRTC tracks.
 *
 * Start-up: GET device/me → device_id; GET .well-known/jwks.json; GET ice-servers (kept fresh, iceConfig.ts); build the backend;
 * POST device/register-cameras; GET device/ip-cameras (the IP cameras this device pulls, §3; asked again
 * every 60 s, failures only logged); register the PeerJS peer. Network failures during start-up are retried until
 * `startupTimeoutMs` (the signalling registration gets at least 10 s); a refused token rejects at once with
 * TokenRefusedError.
 */
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DataConnection } from 'peerjs';
import { X86_CHIPSET_ID } from '../protocol';
import { FREE_MAX_STREAMS } from '../protocol/billing';
import type { IceServer } from '../protocol';
import { createHostBackend } from './backends/host/backend';
import { readNvidiaGpus } from './backends/host/gpu';
import { createIpCamera } from './backends/ipCameras';
import { createSimBackend } from './backends/sim/backend';
import type { Backend } from './backends/types';
import { handlers } from './commands';
import type { CommandContext } from './commands';
import { ProcessTracker, createContainerEngine, parseDockerHost, webTargetLookup } from './containers';
import type { ContainerEngine, WebTarget } from './containers';
import type { DockerEndpoint } from './containers';
import { startTunnelClient, type TunnelClient } from './tunnel';
import { createDeviceLogs } from './logs';
import { createMetricsHistory } from './metrics';
import { createIpCameraReach } from './ipCameras';
import { agentVersion } from './version';
import { createDeviceRecords } from './records';
import { createDeviceRemoteDesktop, withRemoteDesktop } from './remoteDesktop';
import { createDeviceSoftware } from './software';
import { createDeviceModels } from './models';
import { createDeviceInference } from './inference';
import { createDeviceAlarms } from './alarms';
import { createDeviceUseCases } from './useCases';
import { createDeviceSchedulers, inferenceJobRunner } from './schedulers';
import type { AgentLifecycle, AgentPartDeps } from './parts';
import { createDevicePower } from './power';
import { createDeviceSettings } from './deviceSettings';
import { createDeviceStorage } from './storage';
import { createLogger, errorMessage } from './log';
import type { Logger } from './log';
import { createGrantVerifier } from './link/grant';
import { attachLink } from './link/session';
import type { LinkConnection, LinkSession } from './link/session';
import { Signalling } from './link/signalling';
import { AgentIce } from './iceConfig';
import { createServerApi, TokenRefusedError } from './serverApi';
import type { DeviceMe, ServerApi } from './serverApi';
import { CameraCatalog, IP_CAMERA_REFRESH_MS } from './streams/catalog';
import { StreamManager } from './streams/manager';
import type { SimFault } from './options';

export { TokenRefusedError } from './serverApi';
export type { ServerApi, DeviceMe } from './serverApi';

/** How often the container list is compared for changes made outside the console, ms. */
const CONTAINER_WATCH_MS = 5_000;

/** Options of startAgent (CLI flags in main.ts). */
export interface AgentOptions {
  /** Server origin, e.g. 'http://127.0.0.1:8080' (REST under /api/, signalling under /peerjs). */
  server: string;
  /** Device token (from generate_token). */
  token: string;
  /** 'sim' (default): simulated device; 'host': this machine. */
  backend?: 'host' | 'sim';
  /** sim only: device kind; default from the server's chipset_id ('0' → x86, else jetson), else 'jetson'. */
  kind?: 'jetson' | 'x86';
  /** sim only: number of synthetic cameras, 2–4 (default 2). */
  cameras?: number;
  /** sim only: unique_id of a physical camera shared with other devices (the first camera shows it). */
  sharedCamera?: string;
  /** sim only: simulated failures (options.ts SIM_FAULTS); default none. */
  simFaults?: readonly SimFault[];
  /** host only: ffmpeg camera sources (file path, rtsp:// URL, /dev/videoN). */
  cameraSources?: string[];
  /** host only: the Docker Engine endpoint, DOCKER_HOST style (unix:///path, tcp://host:port, or a socket path); default /var/run/docker.sock. */
  dockerHost?: string;
  /** sim only: multiplies the simulated container engine's durations (tests); default 1. */
  containerTimeScale?: number;
  /**
   * A directory for the device's own state (parts.ts AgentPartDeps.stateDir); default
   * `$XDG_STATE_HOME/edge-agent/<deviceId>` (host; XDG_STATE_HOME defaults to ~/.local/state) or
   * `<tmp>/edge-agent-sim/<deviceId>` (sim).
   */
  stateDir?: string;
  /** Display label (logs, sim hostname); default the device's label on the server. */
  label?: string;
  /** Replaces the HTTP client (tests). */
  api?: ServerApi;
  logger?: Logger;
  /** Called when the agent can no longer run (token revoked, signalling refuses the id). */
  onFatal?(err: Error): void;
  /** How long start-up keeps retrying an unreachable server, ms (default 60 000). */
  startupTimeoutMs?: number;
  /** How often the IP camera list is asked again, ms (default IP_CAMERA_REFRESH_MS = 60 000). */
  ipCameraRefreshMs?: number;
  /** Signalling watchdog timing (default every 10 s, 5 s to answer; see link/signalling.ts); tests. */
  signallingWatchdog?: { intervalMs?: number; timeoutMs?: number };
  /** host only: the X display of the remote desktop (e.g. ':0'); default the DISPLAY environment variable. */
  display?: string;
}

/** A running agent. */
export interface RunningAgent {
  deviceId: string;
  /** The device's container engine (spec §3 Container). */
  containers: ContainerEngine;
  /**
   * The loopback address of a running container's web app by full id or 12-character prefix, else null: the
   * only addresses a tunnel may reach (containers/index.ts webTargetLookup).
   */
  webTarget(idOrShortId: string): Promise<WebTarget | null>;
  /** Ends streams, links and the signalling registration; idempotent. */
  close(): Promise<void>;
}

export { agentVersion } from './version';

/** The device's state directory (AgentOptions.stateDir), created (mode 0700) if missing. */
function agentStateDir(options: AgentOptions, deviceId: string): string {
  const dir =
    options.stateDir ??
    (options.backend === 'host'
      ? path.join(
          process.env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state'),
          'edge-agent',
          deviceId,
        )
      : path.join(os.tmpdir(), 'edge-agent-sim', deviceId));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Retries `fn` on errors other than TokenRefusedError until `deadline` (ms epoch), backing off 0.5 s → 5 s. */
async function withRetry<T>(what: string, fn: () => Promise<T>, deadline: number, log: Logger): Promise<T> {
  let delay = 500;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof TokenRefusedError || Date.now() + delay > deadline) throw err;
      log.warn(`${what} failed, retrying in ${delay} ms: ${errorMessage(err)}`);
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(5_000, delay * 2);
    }
  }
}

/**
 * Starts one agent. Resolves once it is registered with signalling (ready for links); rejects with
 * TokenRefusedError when the server refuses the token, or with the last error when the server stays
 * unreachable for `startupTimeoutMs`.
 */
export async function startAgent(options: AgentOptions): Promise<RunningAgent> {
  const startedAt = Date.now();
  const deadline = startedAt + (options.startupTimeoutMs ?? 60_000);
  let log = options.logger ?? createLogger(options.label ?? 'agent');
  const api = options.api ?? createServerApi(options.server, options.token);

  const me: DeviceMe = await withRetry('GET device/me', () => api.me(), deadline, log);
  const deviceId = me.device_id;
  // The device's stream quota (issue 15; README "Stream quota"): from device/me, re-read with it.
  let maxStreams = me.max_streams ?? FREE_MAX_STREAMS;
  if (!options.logger) {
    // A real device keeps its own log file: the Logs tab's `agent` topic (<stateDir>/logs).
    const file =
      options.backend === 'host'
        ? path.join(agentStateDir(options, deviceId), 'logs', 'agent.log')
        : undefined;
    log = createLogger(options.label ?? me.label ?? deviceId, { file });
  }
  const jwks = await withRetry('GET .well-known/jwks.json', () => api.jwks(), deadline, log);
  // Issue 15: TURN credentials minted for this device expire; AgentIce refreshes them before they do.
  const ice = new AgentIce(
    () =>
      api.iceConfig
        ? api.iceConfig(deviceId)
        : api.iceServers(deviceId).then((servers: IceServer[]) => ({ servers })),
    log,
  );
  await withRetry('GET ice-servers', () => ice.load(), deadline, log);
  const iceServers = () => ice.iceServers();
  const iceTransportPolicy = () => ice.iceTransportPolicy();

  const backend: Backend =
    options.backend === 'host'
      ? createHostBackend({ cameraSources: options.cameraSources ?? [], jetpack: me.jetpack, logger: log })
      : createSimBackend({
          deviceId,
          kind: options.kind ?? (me.chipset_id === X86_CHIPSET_ID ? 'x86' : 'jetson'),
          cameras: options.cameras ?? 2,
          label: options.label ?? me.label,
          jetpack: me.jetpack,
          sharedCamera: options.sharedCamera,
        });

  const deviceName = options.label ?? (me.label || deviceId);
  let endpoint: DockerEndpoint = { socketPath: '/var/run/docker.sock' };
  if (options.backend === 'host') {
    try {
      endpoint = parseDockerHost(options.dockerHost);
    } catch (err) {
      log.warn(`${errorMessage(err)}; using /var/run/docker.sock`);
    }
  }
  const containers: ContainerEngine =
    options.backend === 'host'
      ? createContainerEngine({
          backend: 'host',
          deviceId,
          deviceName,
          endpoint,
          gpu:
            backend.kind === 'jetson'
              ? 'jetson'
              : (await readNvidiaGpus().catch(() => [])).length > 0
                ? 'nvidia'
                : null,
        })
      : createContainerEngine({
          backend: 'sim',
          deviceId,
          deviceName,
          kind: backend.kind,
          timeScale: options.containerTimeScale,
        });

  const cameras = new CameraCatalog(backend.cameras, (entry) => createIpCamera(entry, log), log);
  const links = new Map<string, LinkSession>();
  const remoteDesktop = createDeviceRemoteDesktop({ mode: options.backend === 'host' ? 'host' : 'sim', display: options.display ?? process.env.DISPLAY, log }); // prettier-ignore
  const streams = new StreamManager(withRemoteDesktop(cameras, remoteDesktop), {
    iceServers,
    maxStreams: () => maxStreams,
    iceTransportPolicy,
    logger: log,
    onStreamEnded: (info, reason) =>
      links.get(info.linkId)?.sendEvent('stream.status', {
        callId: info.callId,
        camera_id: info.cameraId,
        status: 'closed',
        reason,
      }),
  });
  /** Pushes an event to every ready link (sendEvent ignores links not ready). */
  const broadcast = (name: string, data: unknown) => {
    for (const link of links.values()) link.sendEvent(name, data);
  };
  const dockerProcesses = new ProcessTracker({
    device: deviceId,
    engine: containers,
    broadcast,
    logger: log,
  });
  dockerProcesses.watch(CONTAINER_WATCH_MS);
  let signalling: Signalling | null = null;
  let closed = false;
  /** Builds the signalling registration (set once onConnection exists); used again after goOffline. */
  let createSignalling: (() => Signalling) | null = null;
  let offline: { done: Promise<void>; resolve: () => void; timer: NodeJS.Timeout } | null = null;
  const lifecycle: AgentLifecycle = {
    goOffline(ms) {
      if (offline) return offline.done;
      if (closed) return Promise.resolve();
      log.info('going off the air', { ms });
      // Not closeAll: that refuses streams for good, and the device streams again once it is back.
      streams.endAll();
      for (const link of [...links.values()]) link.close();
      signalling?.close();
      signalling = null;
      let resolve: () => void = () => undefined;
      const done = new Promise<void>((r) => (resolve = r));
      const timer = setTimeout(() => {
        if (closed || !createSignalling) return offline?.resolve();
        const next = createSignalling();
        signalling = next;
        next.start().then(
          () => log.info('back on the air'),
          (err: unknown) => log.warn(`registering again failed: ${errorMessage(err)}`),
        );
        offline?.resolve();
      }, ms);
      offline = {
        done,
        timer,
        resolve: () => {
          offline = null;
          resolve();
        },
      };
      return done;
    },
  };
  const partDeps: AgentPartDeps = {
    mode: options.backend === 'host' ? 'host' : 'sim',
    backend,
    deviceId,
    label: deviceName,
    stateDir: agentStateDir(options, deviceId),
    log,
    broadcast,
    lifecycle,
    server: { url: options.server, token: options.token },
  };
  const parts = {
    logs: createDeviceLogs(partDeps),
    power: createDevicePower(partDeps),
    settings: createDeviceSettings(partDeps),
    storage: createDeviceStorage(partDeps),
    metrics: createMetricsHistory(partDeps),
    ipCameras: createIpCameraReach(partDeps),
    records: createDeviceRecords(partDeps),
    software: createDeviceSoftware(partDeps),
    models: createDeviceModels(partDeps),
  };
  const alarms = createDeviceAlarms(partDeps, { isIpCamera: (id) => cameras.find(id)?.cameraType === 'ip' });
  const useCases = createDeviceUseCases(partDeps);
  const inference = createDeviceInference(partDeps, { streams, cameras, models: parts.models, iceServers, iceTransportPolicy, failDefaultEngineConnection: options.simFaults?.includes('inference-connection') ?? false, onDetections: (j, f, d, w) => { alarms.onDetections(j, f, d, w); useCases.onDetections(j, f, d, w); } }); // prettier-ignore
  const schedulers = createDeviceSchedulers({
    stateDir: partDeps.stateDir,
    log,
    runner: inferenceJobRunner(inference),
  });
  let ipTimer: NodeJS.Timeout | undefined;

  /** Asks the server for this device's IP cameras; ends the streams of cameras that are gone or changed. */
  const refreshIpCameras = async () => {
    try {
      const change = cameras.setIpCameras(await api.ipCameras());
      for (const id of change.removed) streams.endCamera(id);
      if (change.added.length || change.removed.length) {
        log.info('IP cameras updated', { cameras: cameras.ipCount, added: change.added.length });
      }
    } catch (err) {
      log.warn(`GET device/ip-cameras failed (the list is asked again later): ${errorMessage(err)}`);
    }
  };

  let tunnel: TunnelClient | null = null;
  const close = async () => {
    if (closed) return;
    closed = true;
    clearInterval(ipTimer);
    if (offline) {
      clearTimeout(offline.timer);
      offline.resolve();
    }
    streams.closeAll();
    ice.stop();
    for (const link of [...links.values()]) link.close();
    signalling?.close();
    cameras.close();
    remoteDesktop.close();
    dockerProcesses.close();
    await Promise.all([
      backend.close(),
      containers.close().catch(() => undefined),
      tunnel?.close().catch(() => undefined),
      ...Object.values(parts).map((part) => part.close().catch(() => undefined)),
      inference.close(),
      alarms.close(),
      useCases.close(),
    ]);
    schedulers.close();
    log.info('agent stopped');
    await log.close?.();
  };

  try {
    await withRetry(
      'POST device/register-cameras',
      () =>
        api.registerCameras({
          cameras: backend.cameras.map((c) => ({
            camera_id: c.cameraId,
            name: c.name,
            unique_id: c.uniqueId,
          })),
        }),
      deadline,
      log,
    );
    await refreshIpCameras();
    ipTimer = setInterval(() => void refreshIpCameras(), options.ipCameraRefreshMs ?? IP_CAMERA_REFRESH_MS);
    ipTimer.unref();

    const version = agentVersion();
    const verifier = createGrantVerifier({ deviceId, jwks, refetchJwks: () => api.jwks() });
    const onConnection = (conn: DataConnection) => {
      if (closed) {
        conn.close();
        return;
      }
      const link = attachLink<CommandContext>(conn as unknown as LinkConnection, {
        deviceId,
        verifier,
        handlers,
        logger: log,
        makeContext: (browserId, linkId) => ({
          deviceId,
          browserId,
          linkId,
          backend,
          cameras,
          streams,
          startedAt,
          version,
          containers,
          dockerProcesses,
          broadcast,
          ...parts,
          inference,
          schedulers,
          alarms,
          remoteDesktop,
        }),
        onClosed: (l) => {
          links.delete(l.id);
          streams.stopLink(l.id);
          inference.stopLink(l.id);
        },
      });
      links.set(link.id, link);
    };

    createSignalling = () =>
      new Signalling({
        serverUrl: options.server,
        deviceId,
        deviceToken: options.token,
        iceServers: ice.iceServers(),
        iceConfig: ice.config,
        logger: log,
        onConnection,
        watchdog: options.signallingWatchdog,
        checkToken: async () => {
          maxStreams = (await api.me()).max_streams ?? maxStreams;
          // The server is back: pick up ICE server changes (and fresh credentials) for new connections.
          await ice.refreshIfDue(true);
        },
        onFatal: (err) => {
          void close();
          options.onFatal?.(err);
        },
      });
    signalling = createSignalling();
    const waitMs = Math.max(10_000, deadline - Date.now());
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      signalling.start(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new Error(
                `The signalling server did not accept the agent within ${Math.round(waitMs / 1000)} s`,
              ),
            ),
          waitMs,
        );
      }),
    ]).finally(() => clearTimeout(timer));
  } catch (err) {
    await close();
    throw err;
  }
  // The reverse tunnel to the server for containers' web apps (request_remote_device): only the addresses
  // webTarget answers (a running container's published web app) are reachable through it.
  const webTarget = webTargetLookup(containers);
  if (!closed) {
    tunnel = startTunnelClient({
      serverUrl: options.server,
      deviceToken: options.token,
      resolveTarget: webTarget,
      log,
    });
  }
  log.info('agent ready', {
    device_id: deviceId,
    backend: backend.name,
    kind: backend.kind,
    cameras: backend.cameras.length,
    ip_cameras: cameras.ipCount,
  });
  return { deviceId, containers, webTarget, close };
}
