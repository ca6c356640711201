/**
 * The three image kinds of §3 Storage item (`imageType`), classified from a device's Docker images by their
 * first RepoTag:
 * - `inference-engine`: inference runtimes — repositories named like triton / tritonserver / tensorrt /
 *   deepstream / onnxruntime / openvino / inference (e.g. 'nvcr.io/nvidia/tritonserver:24.01-py3');
 * - `product`: the product's own images, the `edge/` namespace of the environment catalogue
 *   (e.g. 'edge/jupyter-pytorch:2.3-jetson');
 * - `companion`: every other image (services beside the product, e.g. 'redis:7-alpine'; untagged images).
 */
import type { DockerImage } from '../../protocol/containers';
import { IMAGES_MAX, NAME_MAX_CHARS, REPO_TAGS_MAX } from '../../protocol/storage';
import type { ImageKind, ImageList } from '../../protocol/storage';

const INFERENCE =
  /(^|[/_.-])(triton|tritonserver|tensorrt|l4t-tensorrt|deepstream|deepstream-l4t|onnxruntime|openvino|inference|inference-engine)([/:_.-]|$)/i;

/** The kind of an image (see the module docstring). */
export function imageKind(image: Pick<DockerImage, 'RepoTags'>): ImageKind {
  const tag = image.RepoTags.find((t) => t && t !== '<none>:<none>');
  if (!tag) return 'companion';
  const repository = tag.slice(
    0,
    tag.lastIndexOf(':') > tag.lastIndexOf('/') ? tag.lastIndexOf(':') : undefined,
  );
  if (INFERENCE.test(repository)) return 'inference-engine';
  if (repository.startsWith('edge/')) return 'product';
  return 'companion';
}

/**
 * The images of `kind` among `images` (the same Id once), largest first, at most IMAGES_MAX with at most
 * REPO_TAGS_MAX tags each; count and bytes cover every image of the kind.
 */
export function imageList(kind: ImageKind, images: readonly DockerImage[]): ImageList {
  const byId = new Map<string, DockerImage>();
  for (const image of images) if (!byId.has(image.Id)) byId.set(image.Id, image);
  const ofKind = [...byId.values()]
    .filter((image) => imageKind(image) === kind)
    .sort((a, b) => b.Size - a.Size || a.Id.localeCompare(b.Id));
  return {
    kind,
    images: ofKind.slice(0, IMAGES_MAX).map((image) => ({
      Id: image.Id.slice(0, NAME_MAX_CHARS),
      RepoTags: image.RepoTags.slice(0, REPO_TAGS_MAX).map((t) => t.slice(0, NAME_MAX_CHARS)),
      Size: image.Size,
    })),
    count: ofKind.length,
    bytes: ofKind.reduce((sum, image) => sum + image.Size, 0),
  };
}
