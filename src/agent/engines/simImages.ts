/**
 * Engine images of the `sim` container engine's registry (simRegistry.ts lists them beside the environments),
 * so a simulated device can download its inference engine's image with progress like a real one (issue 10
 * "docker-image for engine images"). Sizes are those of NGC's DeepStream 7.1 multi-architecture image.
 */
import { DEEPSTREAM_IMAGE } from '../../protocol/engines';
import type { SimRepository } from '../containers/simRegistry';

const at = DEEPSTREAM_IMAGE.lastIndexOf(':');

export const SIM_ENGINE_REPOSITORIES: readonly SimRepository[] = [
  {
    repository: DEEPSTREAM_IMAGE.slice(0, at),
    description: 'NVIDIA DeepStream 7.1 with Triton (inference engine)',
    jupyter: false,
    jupyter_port: 8888,
    tags: [{ tag: DEEPSTREAM_IMAGE.slice(at + 1), platform: 'any', size_mb: 5_600 }],
    layers: 8,
  },
];
