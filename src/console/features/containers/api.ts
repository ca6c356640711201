/**
 * The containers feature's calls: REST routes `containers.*` (src/protocol/containers.ts: the environment
 * catalogue, its admin CRUD, §7 request_remote_device) and the §7 Containers / Engine-and-images device
 * commands over the peer link. Errors: REST calls reject with ApiRequestError { code, message, status }
 * (404 missing, 409 alias taken), device calls with DeviceCommandError { code, message } (platform/).
 */
import type {
  Container,
  DockerProcess,
  Environment,
  EnvironmentInput,
  PublicEnvironment,
} from '../../../protocol/containers';
import type { Http } from '../../platform/http';
import type { CallDevice } from '../../platform/peerLink';

export function containersApi(http: Http) {
  return {
    /** GET containers.environments → the catalogue (§2 /containers). */
    async listEnvironments(signal?: AbortSignal): Promise<Environment[]> {
      return (await http.call('containers.environments', { signal })).environments;
    },

    /** GET containers.environment (signed in) → one entry; 404 when missing. */
    async getEnvironment(alias: string, signal?: AbortSignal): Promise<Environment> {
      return (await http.call('containers.environment', { params: { alias }, signal })).environment;
    },

    /** GET containers.publicEnvironment (signed out, §2 environment-detail) → catalogue facts only; 404. */
    async getPublicEnvironment(alias: string, signal?: AbortSignal): Promise<PublicEnvironment> {
      return (await http.call('containers.publicEnvironment', { params: { alias }, signal })).environment;
    },

    /** POST containers.createEnvironment (id null) or PUT containers.updateEnvironment; 409 alias taken. */
    async saveEnvironment(id: string | null, input: EnvironmentInput, signal?: AbortSignal) {
      const answer = id
        ? await http.call('containers.updateEnvironment', { params: { id }, body: input, signal })
        : await http.call('containers.createEnvironment', { body: input, signal });
      return answer.environment;
    },

    /** DELETE containers.deleteEnvironment (containers on devices keep running). */
    async deleteEnvironment(id: string, signal?: AbortSignal): Promise<void> {
      await http.call('containers.deleteEnvironment', { params: { id }, signal });
    },

    /**
     * POST containers.requestRemoteDevice (§7 request_remote_device, target 'jupyter') → data.url, a
     * same-origin path that works in this browser only (the answer sets its cookie).
     */
    async openJupyterUrl(deviceId: string, containerId: string, signal?: AbortSignal): Promise<string> {
      const answer = await http.call('containers.requestRemoteDevice', {
        body: { device_id: deviceId, target: 'jupyter', data: { container_id: containerId } },
        signal,
      });
      return answer.data.url;
    },
  };
}

export type ContainersApi = ReturnType<typeof containersApi>;

/** The device commands of the feature (§7), typed by the command registry. */
export function containerCommands(call: CallDevice) {
  return {
    /** getContainers → every container of the device (§3 Container). */
    async getContainers(deviceId: string): Promise<Container[]> {
      return (await call(deviceId, 'getContainers', {})).containers;
    },
    /** docker-processes → Docker processes running or ended in the last 10 minutes (§3). */
    async dockerProcesses(deviceId: string): Promise<DockerProcess[]> {
      return (await call(deviceId, 'docker-processes', {})).processes;
    },
    /** docker-logs → the last `tail` lines, oldest first. */
    async dockerLogs(deviceId: string, containerId: string, tail: number): Promise<string[]> {
      return (await call(deviceId, 'docker-logs', { id: containerId, tail })).lines;
    },
  };
}
