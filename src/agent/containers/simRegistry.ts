/**
 * The registry the `sim` container engine pulls from (spec §3 Docker images; §4 Container action): the
 * repositories and tags a simulated device can download. The server's seed catalogue uses the same
 * repository names, so every seeded environment can be downloaded, created and started on a sim device.
 * `edge/python:3.11` is present on every sim device from the start; the Jupyter images are not (so the
 * console's "Environment not found, then a download offer" path, §8, is exercised).
 */
import type { EnvPlatform } from '../../protocol/containers';
import { SIM_ENGINE_REPOSITORIES } from '../engines/simImages';

/** One tag of a simulated repository. */
export interface SimTag {
  tag: string;
  /** Devices it runs on (EnvPlatform): a Jetson device cannot pull an 'x86' tag and the reverse. */
  platform: EnvPlatform;
  /** Download size, MB (EnvTag.size_mb): the layers add up to it. */
  size_mb: number;
}

/** One repository of the simulated registry. */
export interface SimRepository {
  /** Docker repository name (ImageRepository), e.g. 'edge/jupyter-pytorch'. */
  repository: string;
  /** A short human description (the seed catalogue's). */
  description: string;
  /** The image serves JupyterLab (on `jupyter_port` inside the container). */
  jupyter: boolean;
  jupyter_port: number;
  tags: SimTag[];
  /** Number of layers of every tag (2–8). */
  layers: number;
}

export const SIM_REGISTRY: readonly SimRepository[] = [
  {
    repository: 'edge/jupyter-pytorch',
    description: 'JupyterLab with PyTorch 2.3 and CUDA',
    jupyter: true,
    jupyter_port: 8888,
    tags: [
      { tag: '2.3-jetson', platform: 'jetson', size_mb: 2_400 },
      { tag: '2.3-x86', platform: 'x86', size_mb: 3_100 },
    ],
    layers: 6,
  },
  {
    repository: 'edge/jupyter-tensorflow',
    description: 'JupyterLab with TensorFlow 2.16',
    jupyter: true,
    jupyter_port: 8888,
    tags: [{ tag: '2.16', platform: 'any', size_mb: 1_900 }],
    layers: 5,
  },
  {
    repository: 'edge/python',
    description: 'Python 3.11 with pip',
    jupyter: false,
    jupyter_port: 8888,
    tags: [{ tag: '3.11', platform: 'any', size_mb: 180 }],
    layers: 3,
  },
  ...SIM_ENGINE_REPOSITORIES,
];

/** Images every sim device has from the start. */
export const SIM_PRESENT_IMAGES: readonly string[] = ['edge/python:3.11'];

/** The repository and tag of `repository:tag` in the sim registry, or null. */
export function findSimImage(ref: string): { repo: SimRepository; tag: SimTag } | null {
  const at = ref.lastIndexOf(':');
  if (at <= 0) return null;
  const repo = SIM_REGISTRY.find((r) => r.repository === ref.slice(0, at));
  const tag = repo?.tags.find((t) => t.tag === ref.slice(at + 1));
  return repo && tag ? { repo, tag } : null;
}
