/**
 * The models feature's actors (issue 9): the model list (systemId modelList), the model page with its deploy
 * (modelDetail) and /remote-downloads (remoteDownloads), with their server calls and the deploy's device
 * command.
 */
import { fromCallback, fromPromise } from 'xstate';
import { modelDetailMachine, type RunDeployEvent } from '../../../../machines/models/modelDetail.machine';
import { modelListMachine, type ModelQuery } from '../../../../machines/models/modelList.machine';
import { remoteDownloadsMachine } from '../../../../machines/models/remoteDownloads.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Platform } from '../feature';
import { modelsApi, type ModelsApi } from './api';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** models-deploy as a callback actor: progress, done, failed; stopped early → the device is told to cancel. */
export function runDeployActor(api: () => ModelsApi) {
  return fromCallback<RunDeployEvent, { deviceId: string; deploymentId: string }>(({ input, sendBack }) => {
    const abort = new AbortController();
    let finished = false;
    api()
      .runDeploy(
        input.deviceId,
        input.deploymentId,
        (download) => sendBack({ type: 'deploy.progress', download }),
        abort.signal,
      )
      .then(
        () => {
          finished = true;
          sendBack({ type: 'deploy.done' });
        },
        (e: unknown) => {
          finished = true;
          if (!abort.signal.aborted) sendBack({ type: 'deploy.failed', error: message(e) });
        },
      );
    return () => {
      if (finished) return;
      abort.abort();
      void api()
        .cancelDeploy(input.deviceId, input.deploymentId)
        .catch(() => undefined);
    };
  });
}

export function modelsActors({ http, peerLink }: Platform): FeatureActor[] {
  const api = modelsApi(http, peerLink.callDevice.bind(peerLink));
  const list = modelListMachine.provide({
    actors: {
      fetchModels: fromPromise(({ input }: { input: ModelQuery }) => api.list(input)),
      deleteModel: fromPromise<unknown, { id: string }>(({ input }) => api.remove(input.id)),
    },
  });
  const detail = modelDetailMachine.provide({
    actors: {
      fetchModel: fromPromise(({ input }: { input: { id: string } }) => api.get(input.id)),
      deleteVersion: fromPromise<unknown, { id: string; version: number }>(({ input }) =>
        api.removeVersion(input.id, input.version),
      ),
      createDeployment: fromPromise(
        ({ input }: { input: { id: string; version: number; deviceId: string } }) =>
          api.deploy(input.id, input.version, input.deviceId),
      ),
      runDeploy: runDeployActor(() => api),
    },
  });
  const downloads = remoteDownloadsMachine.provide({
    actors: {
      fetchDeployments: fromPromise(() => api.deployments()),
      forgetDeployment: fromPromise<unknown, { id: string }>(({ input }) => api.forget(input.id)),
    },
  });
  return [
    featureActor({ systemId: SYSTEM_IDS.modelList, logic: list, onSignOut: [{ type: 'models.reset' }] }),
    featureActor({ systemId: SYSTEM_IDS.modelDetail, logic: detail, onSignOut: [{ type: 'detail.reset' }] }),
    featureActor({
      systemId: SYSTEM_IDS.remoteDownloads,
      logic: downloads,
      onSignOut: [{ type: 'downloads.close' }],
    }),
  ];
}
