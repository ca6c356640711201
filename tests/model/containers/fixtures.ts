/** Shared pieces of the containers feature's model tests (action and registry). */
import type { EventObject } from 'xstate';
import type { ContainerActionRequest } from '../../../machines/containers/containerAction.machine';
import type { Container, DockerProcess } from '../../../src/protocol/containers';

export const IMAGE = 'nvcr.io/nvidia/l4t-pytorch:r35.2.1';

/** A container of environment 'pytorch-lab' on dev-1. */
export const container = (over: Partial<Container> = {}): Container => ({
  Id: 'c0ffee0123456789abcdef',
  Name: 'pytorch-lab-1',
  Image: IMAGE,
  Status: 'Up 3 seconds',
  State: 'running',
  Jupyter: false,
  LocalPort: null,
  deviceName: 'Device 1',
  deviceId: 'dev-1',
  api_url: null,
  EnvName: 'pytorch-lab',
  Gpu: true,
  Created: 1_700_000_000,
  ...over,
});

/** An action request on dev-1's 'pytorch-lab'. */
export const request = (over: Partial<ContainerActionRequest> = {}): ContainerActionRequest => ({
  deviceId: 'dev-1',
  deviceName: 'Device 1',
  envName: 'pytorch-lab',
  image: IMAGE,
  action: 'create',
  containerId: null,
  jupyter: false,
  gpu: true,
  sizeMb: 4200,
  ...over,
});

/** A Docker process running on dev-1 (§3). */
export const process = (over: Partial<DockerProcess> = {}): DockerProcess => ({
  id: 'p-1',
  device: 'dev-1',
  docker: IMAGE,
  envName: 'pytorch-lab',
  action: 'download',
  message: 'Downloading the image',
  error: null,
  started: 1_000,
  ended: null,
  gpu: true,
  percent: 40,
  ...over,
});

/** The event an invoked actor `id` sends when it is done with `output`. */
export const done = (id: string, output: unknown) =>
  ({ type: `xstate.done.actor.${id}`, output }) as EventObject;
/** The event an invoked actor `id` sends when it fails with a link error `{ code, message }`. */
export const fail = (id: string, code = 'internal_error', message = 'engine said no') =>
  ({ type: `xstate.error.actor.${id}`, error: Object.assign(new Error(message), { code }) }) as EventObject;
