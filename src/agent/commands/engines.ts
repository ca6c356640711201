/**
 * Engine commands (spec §7 "Engine and images": check-inference-engine-exist; shapes in
 * src/protocol/engines.ts). The engine images move with the container commands (check-docker-image,
 * docker-image, download-docker-image: containers.ts) and the GPU driver with get-gpu-driver-version
 * (health.ts, §5 x86 only): one implementation each, shared with the containers and device pages.
 */
import { checkInferenceEngines } from '../engines';
import type { Handlers } from './registry';

type EngineProcess = 'check-inference-engine-exist';

export const engineHandlers = {
  'check-inference-engine-exist': (_payload, ctx) =>
    checkInferenceEngines({
      backend: ctx.backend,
      containers: ctx.containers,
      dockerProcesses: ctx.dockerProcesses,
      version: ctx.version,
    }),
} satisfies Pick<Handlers, EngineProcess>;
