/**
 * The engines feature's actors (issue 10 "Engines"; §7 check-inference-engine-exist, get-gpu-driver-version,
 * download-docker-image, cancel-docker-download, get-usages): the device scores machine (systemId 'engines')
 * and the per-device engines machine the screen runs for each connected device, with their device calls.
 */
import { fromCallback, fromPromise } from 'xstate';
import {
  deviceEnginesMachine,
  type DeviceEnginesEvent,
  type DriverCheck,
  type EngineCheckResult,
} from '../../../../machines/engines/deviceEngines.machine';
import { deviceScoresMachine } from '../../../../machines/engines/deviceScores.machine';
import type { UsagesLike } from '../../../../machines/engines/engineView';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { CallDevice } from '../../platform/peerLink';
import type { Platform } from '../feature';

/** A download's link stays open this long without a progress message before it counts as failed, ms. */
const DOWNLOAD_SILENCE_MS = 120_000;

let call: CallDevice | null = null;

function device(): CallDevice {
  if (!call) throw new Error('engines: not started');
  return call;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
const codeOf = (e: unknown) => (e && typeof e === 'object' ? (e as { code?: unknown }).code : undefined);

/** The check: the engines, and the GPU driver on x86 (§5: on a Jetson the refusal, without asking). */
async function checkEngines(deviceId: string, kind: 'jetson' | 'x86'): Promise<EngineCheckResult> {
  const [engines, driver] = await Promise.all([
    device()(deviceId, 'check-inference-engine-exist', {}),
    kind === 'x86'
      ? device()(deviceId, 'get-gpu-driver-version', {}).then(
          (r): DriverCheck => ({ kind: 'version', driver_version: r.driver_version, gpus: r.gpus }),
          (e: unknown): DriverCheck =>
            codeOf(e) === 'not_x86' ? { kind: 'x86Only' } : { kind: 'error', message: message(e) },
        )
      : Promise.resolve<DriverCheck>({ kind: 'x86Only' }),
  ]);
  return { engines, driver };
}

/** The per-device engines machine with its device calls (the screen runs one per connected device). */
export function deviceEnginesLogic() {
  return deviceEnginesMachine.provide({
    actors: {
      checkEngines: fromPromise(({ input }) => checkEngines(input.deviceId, input.kind)),
      downloadImage: fromCallback<DeviceEnginesEvent, { deviceId: string; image: string }>(
        ({ input, sendBack }) => {
          const abort = new AbortController();
          device()(
            input.deviceId,
            'download-docker-image',
            { image: input.image },
            {
              signal: abort.signal,
              timeoutMs: DOWNLOAD_SILENCE_MS,
              onProgress: (data) => {
                const percent = (data as { percent?: unknown } | null)?.percent;
                if (typeof percent === 'number') sendBack({ type: 'download.progress', percent });
              },
            },
          ).then(
            () => sendBack({ type: 'download.done' }),
            (e: unknown) => {
              if (!abort.signal.aborted) sendBack({ type: 'download.failed', error: message(e) });
            },
          );
          return () => abort.abort();
        },
      ),
      cancelDownload: fromPromise(
        async ({ input }) =>
          (await device()(input.deviceId, 'cancel-docker-download', { image: input.image })).canceled,
      ),
    },
  });
}

/** get-usages of every device at once; a device that does not answer is null. */
async function readUsages(deviceIds: string[]): Promise<Record<string, UsagesLike | null>> {
  const entries = await Promise.all(
    deviceIds.map(async (id) => [id, await device()(id, 'get-usages', {}).catch(() => null)] as const),
  );
  return Object.fromEntries(entries);
}

export function enginesActors({ peerLink }: Platform): FeatureActor[] {
  call = peerLink.callDevice.bind(peerLink);
  const logic = deviceScoresMachine.provide({
    actors: { readUsages: fromPromise(({ input }) => readUsages(input.deviceIds)) },
  });
  return [featureActor({ systemId: SYSTEM_IDS.engines, logic, onSignOut: [{ type: 'scores.reset' }] })];
}
