/**
 * The zod-free constants of the containers contract (src/protocol/containers.ts re-exports them): the §8 texts
 * of the container action flow and the agent's event names. Apart so that the console's machines, which load
 * with the first chunk, use them without loading zod (as errors.ts for the REST contract).
 */

/**
 * Agent-pushed link events of this feature (link.ts EventMessage names), sent to every open link of the device:
 * 'containers.changed' { containers: Container[] } whenever a container's State or Jupyter changes;
 * 'docker.process' DockerProcess whenever a Docker process starts, advances a step or ends.
 */
export const CONTAINER_EVENTS = { changed: 'containers.changed', process: 'docker.process' } as const;
/** §8 texts of the container action flow (English; the console translates by these keys). */
export const CONTAINER_TEXTS = {
  envNotFound: 'Environment not found',
  ongoingProcess: 'Ongoing Process',
  imageCheckFailed: 'Image check failed',
  unknownAction: 'Unknown action',
  actionFailed: 'Container action failed',
  unexpectedResponse: 'Unexpected response',
  unknownDockerAction: 'Unknown Docker Action',
  actionHasFailed: 'Container action has been failed',
  /** Ours (issue 15): the device's link closed while the action ran (its agent died, it went offline). */
  deviceOffline: 'The device went offline during the action. Try again once it is back.',
} as const;
