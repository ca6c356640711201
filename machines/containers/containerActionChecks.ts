/**
 * Pure decisions of the container action flow (containerAction.machine.ts) — spec §4 "Container action",
 * §8 Docker texts. No XState, no I/O: what a check-docker-image reply means, which §8 text a failure
 * shows, the overall percent of a download progress message, an action's registry key, and which
 * environment tags fit a device.
 */
import { CONTAINER_TEXTS } from '../../src/protocol/containerTexts';
import type { Container, DockerProcess, EnvPlatform, LayerProgress } from '../../src/protocol/containers';
import { X86_CHIPSET_ID } from '../../src/protocol/constants';

/** §8 texts of the container action flow and the agent's event names (zod-free part of the contract). */
export { CONTAINER_TEXTS } from '../../src/protocol/containerTexts';
export { CONTAINER_EVENTS as CONTAINER_EVENT_NAMES } from '../../src/protocol/containerTexts';

/** The four container actions of §4. */
export const CONTAINER_ACTIONS = ['create', 'start', 'stop', 'remove'] as const;
export type ContainerAction = (typeof CONTAINER_ACTIONS)[number];

/** True for the four actions of §4 ('create' | 'start' | 'stop' | 'remove'). */
export const isContainerAction = (action: string): action is ContainerAction =>
  (CONTAINER_ACTIONS as readonly string[]).includes(action);

/** §4: what a check-docker-image reply leads to: present → create, missing → offer a download, else fail. */
export type ImageCheckOutcome = 'present' | 'missing' | 'failed';

/** 200 → 'present'; 404 → 'missing' (offer a download); any other status → 'failed' (§4). */
export function imageCheckOutcome(reply: { status: number }): ImageCheckOutcome {
  if (reply.status === 200) return 'present';
  if (reply.status === 404) return 'missing';
  return 'failed';
}

/**
 * The message shown with "Image check failed" (§8) for a non-200, non-404 reply: the device's words, or
 * `HTTP <status>` when it gave none.
 */
export function imageCheckFailureMessage(reply: { status: number; message: string }): string {
  return reply.message.trim() || `HTTP ${reply.status}`;
}

/** An error as the link reports it (DeviceCommandError has `code` and `message`). */
interface CodedError {
  code?: unknown;
  message?: unknown;
}

/**
 * The §8 text for a failed device command of the action flow:
 * 'invalid_reply' (the reply did not match the contract) → "Unexpected response";
 * 'unknown_process' (the device does not know the Docker command) → "Unknown Docker Action";
 * a device error with words → those words; 'link_closed' (the device's link closed under the call: its agent
 * died or it went offline, issue 15) → CONTAINER_TEXTS.deviceOffline; otherwise → "Container action has been
 * failed".
 */
export function actionFailureMessage(error: unknown): string {
  const e = (error && typeof error === 'object' ? error : {}) as CodedError;
  if (e.code === 'invalid_reply') return CONTAINER_TEXTS.unexpectedResponse;
  if (e.code === 'unknown_process') return CONTAINER_TEXTS.unknownDockerAction;
  if (e.code === 'link_closed') return CONTAINER_TEXTS.deviceOffline;
  if (typeof e.message === 'string' && e.message.trim()) return e.message;
  if (typeof error === 'string' && error.trim()) return error;
  return CONTAINER_TEXTS.actionHasFailed;
}

/** True when a call failed because the device's link closed (issue 15: the device went offline mid-action). */
export function isLinkClosedError(error: unknown): boolean {
  return !!error && typeof error === 'object' && (error as CodedError).code === 'link_closed';
}

/** True when a download failed because it was canceled (the link's 'aborted' or the device's 'canceled'). */
export function isCanceledError(error: unknown): boolean {
  const code = (error && typeof error === 'object' ? (error as CodedError).code : undefined) as unknown;
  return code === 'aborted' || code === 'canceled';
}

/**
 * Overall percent 0–100 of a download-docker-image progress message (DownloadProgress, unvalidated): its
 * `percent` when it is a number, else `layersPercent(layers)` (the contract's downloadPercent); null when
 * the data has neither.
 */
export function progressPercent(
  data: unknown,
  layersPercent: (layers: LayerProgress[]) => number,
): number | null {
  if (!data || typeof data !== 'object') return null;
  const d = data as { percent?: unknown; layers?: unknown };
  if (typeof d.percent === 'number' && Number.isFinite(d.percent)) {
    return Math.min(100, Math.max(0, d.percent));
  }
  if (Array.isArray(d.layers)) {
    const layers = d.layers.filter(
      (l): l is LayerProgress =>
        !!l &&
        typeof l === 'object' &&
        typeof (l as LayerProgress).status === 'string' &&
        typeof (l as LayerProgress).current === 'number' &&
        typeof (l as LayerProgress).total === 'number',
    );
    return layersPercent(layers);
  }
  return null;
}

/**
 * The registry key of an action (§4 "Only one action per environment at a time"): `${deviceId}:${envName}`;
 * a container the console did not make (no EnvName) is keyed by its short id instead.
 */
export function actionKey(deviceId: string, envName: string | null, containerId?: string | null): string {
  return `${deviceId}:${envName ?? (containerId ?? '').slice(0, 12)}`;
}

/** A Docker process (§3) is still running: it has not ended. */
export const isRunningProcess = (p: Pick<DockerProcess, 'ended'>): boolean => p.ended === null;

/** The §4 action a device's Docker process runs ('download' counts as part of a create). */
export function processAction(p: Pick<DockerProcess, 'action'>): ContainerAction {
  return p.action === 'download' ? 'create' : p.action;
}

/** The platform of a device: chipset_id '0' is x86, anything else Jetson (§9). */
export const devicePlatform = (chipsetId: string): 'x86' | 'jetson' =>
  chipsetId === X86_CHIPSET_ID ? 'x86' : 'jetson';

/** True when an environment tag of `platform` runs on a device of chipset `chipsetId`. */
export const tagFitsDevice = (platform: EnvPlatform, chipsetId: string): boolean =>
  platform === 'any' || platform === devicePlatform(chipsetId);

/** The image reference `repository:tag` a device command takes. */
export const imageRef = (repository: string, tag: string): string => `${repository}:${tag}`;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object';

/**
 * A CONTAINER_EVENTS.process event's data as a DockerProcess, or null when it is not one (link events are
 * unvalidated; checked structurally, without zod).
 */
export function asDockerProcess(data: unknown): DockerProcess | null {
  if (!isObject(data)) return null;
  const ok =
    typeof data.id === 'string' &&
    typeof data.device === 'string' &&
    typeof data.docker === 'string' &&
    (data.envName === null || typeof data.envName === 'string') &&
    typeof data.action === 'string' &&
    ['download', 'create', 'start', 'stop', 'remove'].includes(data.action) &&
    typeof data.message === 'string' &&
    (data.error === null || typeof data.error === 'string') &&
    typeof data.started === 'number' &&
    (data.ended === null || typeof data.ended === 'number') &&
    typeof data.gpu === 'boolean' &&
    (data.percent === null || typeof data.percent === 'number');
  return ok ? (data as unknown as DockerProcess) : null;
}

/** A CONTAINER_EVENTS.changed event's containers, or null when the data is not { containers: Container[] }. */
export function asChangedContainers(data: unknown): Container[] | null {
  if (!isObject(data) || !Array.isArray(data.containers)) return null;
  const ok = data.containers.every(
    (c) =>
      isObject(c) &&
      typeof c.Id === 'string' &&
      typeof c.State === 'string' &&
      typeof c.Status === 'string' &&
      typeof c.Jupyter === 'boolean',
  );
  return ok ? (data.containers as Container[]) : null;
}
