/**
 * The models feature's calls (src/protocol/models.ts; issue 9): the server's model routes by name (typed by
 * the route table) and the device commands of a deploy over the peer link. Failures reject with the
 * platform's ApiRequestError / DeviceCommandError { code, message }.
 */
import { ModelDownload } from '../../../protocol/models';
import type { Http } from '../../platform/http';
import type { CallDevice } from '../../platform/peerLink';
import type { ModelQuery } from '../../../../machines/models/modelList.machine';

/** Without a word from the device for this long a deploy fails, ms (each progress message restarts it). */
export const DEPLOY_SILENCE_MS = 60_000;

export function modelsApi(http: Http, call: CallDevice) {
  return {
    list: (query: ModelQuery) => http.call('models.list', { query }),
    get: (id: string) => http.call('models.get', { params: { id } }),
    remove: (id: string) => http.call('models.delete', { params: { id } }),
    removeVersion: (id: string, version: number) =>
      http.call('models.deleteVersion', { params: { id, version } }),
    deploy: (id: string, version: number, deviceId: string) =>
      http.call('models.deploy', { params: { id }, body: { version, device_id: deviceId } }),
    deployments: () => http.call('models.deployments', { query: {} }).then((a) => a.deployments),
    forget: (id: string) => http.call('models.deleteDeployment', { params: { id } }),
    /** models-deploy on the device; `onProgress` gets each valid ModelDownload; `signal` aborts the call. */
    runDeploy: (
      deviceId: string,
      deploymentId: string,
      onProgress: (d: ModelDownload) => void,
      signal: AbortSignal,
    ) =>
      call(
        deviceId,
        'models-deploy',
        { deployment_id: deploymentId },
        {
          timeoutMs: DEPLOY_SILENCE_MS,
          signal,
          onProgress: (data) => {
            const parsed = ModelDownload.safeParse(data);
            if (parsed.success) onProgress(parsed.data);
          },
        },
      ),
    cancelDeploy: (deviceId: string, deploymentId: string) =>
      call(deviceId, 'models-cancel-download', { deployment_id: deploymentId }),
    installed: (deviceId: string) => call(deviceId, 'models-installed', {}),
  };
}

export type ModelsApi = ReturnType<typeof modelsApi>;
