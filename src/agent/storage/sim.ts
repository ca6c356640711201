/**
 * Simulated storage of a device (§7 "Storage") behind the same interface as host.ts: a Jetson with a 64 GB
 * eMMC, or an x86 box with a 512 GB NVMe disk, its EFI partition and a 2 TB data disk. The folder tree is
 * in memory (folders with the bytes and number of files directly in them); a scan walks it folder by folder,
 * `stepMs` per folder (so a scan of '/' takes a few seconds, with progress), and stays on one filesystem like
 * the real walk. The product data (recordings per camera and day, downloaded models, caches) lives in
 * SIM_PRODUCT_DATA_ROOT; deleting it frees space in the tree and on '/'.
 */
import { posix } from 'node:path';
import type { DockerImage } from '../../protocol/containers';
import type { Filesystem, ProductDataFolderId } from '../../protocol/storage';
import { StorageError, throwIfCanceled } from './errors';
import { totalOf } from './host';
import type { StorageBackend } from './types';
import type { WalkCounts } from './walk';

/** Where a sim device keeps the product data. */
export const SIM_PRODUCT_DATA_ROOT = '/var/lib/edge-agent/product-data';

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;

/** A simulated folder: bytes and files directly in it, its child folders; `mount`: another filesystem. */
export interface SimFolder {
  bytes: number;
  files: number;
  children: Map<string, SimFolder>;
  mount?: boolean;
}

type Spec = [bytes: number, files: number, children?: Record<string, Spec>, mount?: boolean];

const build = ([bytes, files, children = {}, mount]: Spec): SimFolder => ({
  bytes: Math.round(bytes),
  files,
  children: new Map(Object.entries(children).map(([name, spec]) => [name, build(spec)])),
  ...(mount ? { mount } : {}),
});

const recordings = (cameras: number, days: number): Spec => {
  const cams: Record<string, Spec> = {};
  for (let c = 1; c <= cameras; c++) {
    const perDay: Record<string, Spec> = {};
    for (let d = 0; d < days; d++) {
      perDay[`2026-11-${String(21 + d).padStart(2, '0')}`] = [(0.9 + 0.15 * c + 0.1 * d) * GB, 288];
    }
    cams[`cam-${c}`] = [0, 0, perDay];
  }
  return [0, 0, cams];
};

const productData = (cameras: number): Spec => [
  0,
  0,
  {
    recordings: recordings(cameras, 3),
    models: [
      0,
      0,
      {
        'yolov8n-coco': [12.6 * MB, 3],
        'peoplenet-v2.6': [89.4 * MB, 4],
        'trafficcamnet-v1.0': [44.1 * MB, 4],
      },
    ],
    cache: [310 * MB, 1_240, { thumbnails: [96 * MB, 3_870], 'tensorrt-engines': [640 * MB, 6] }],
  },
];

function jetsonTree(): Spec {
  return [
    0,
    22,
    {
      usr: [
        0,
        0,
        {
          lib: [1.4 * GB, 2_810, { 'aarch64-linux-gnu': [4.6 * GB, 9_240, { tegra: [610 * MB, 180] }] }],
          local: [0, 0, { 'cuda-11.4': [2.3 * GB, 3_100] }],
          share: [1.2 * GB, 31_500],
          bin: [210 * MB, 1_900],
        },
      ],
      var: [
        0,
        0,
        {
          lib: [
            180 * MB,
            900,
            {
              docker: [3.9 * GB, 40_100],
              'edge-agent': [2 * MB, 6, { 'product-data': productData(2) }],
            },
          ],
          log: [420 * MB, 160],
          cache: [510 * MB, 2_300],
        },
      ],
      opt: [0, 0, { nvidia: [980 * MB, 1_700, { deepstream: [1.6 * GB, 2_400] }] }],
      home: [0, 0, { nvidia: [1.1 * GB, 5_800, { Downloads: [640 * MB, 14] }] }],
      boot: [290 * MB, 40],
      etc: [18 * MB, 2_100],
      snap: [0, 0, {}, true],
    },
  ];
}

function x86Tree(): Spec {
  return [
    0,
    24,
    {
      usr: [
        0,
        0,
        {
          lib: [2.1 * GB, 3_900, { 'x86_64-linux-gnu': [7.8 * GB, 12_300] }],
          local: [0, 0, { 'cuda-12.2': [6.9 * GB, 4_200] }],
          share: [2.4 * GB, 52_000],
          bin: [380 * MB, 2_600],
        },
      ],
      var: [
        0,
        0,
        {
          lib: [
            260 * MB,
            1_400,
            {
              docker: [38.5 * GB, 188_000],
              'edge-agent': [2 * MB, 6, { 'product-data': productData(4) }],
            },
          ],
          log: [1.3 * GB, 340],
          cache: [1.8 * GB, 6_100],
        },
      ],
      opt: [0, 0, { nvidia: [3.2 * GB, 2_900] }],
      home: [0, 0, { operator: [12.4 * GB, 41_000, { datasets: [48 * GB, 120_000] }] }],
      boot: [410 * MB, 60, { efi: [0, 0, {}, true] }],
      etc: [22 * MB, 2_700],
      data: [0, 0, {}, true],
    },
  ];
}

/** Bytes of a folder and everything below it on its filesystem. */
export const folderBytes = (f: SimFolder): number =>
  f.bytes + [...f.children.values()].reduce((s, c) => s + (c.mount ? 0 : folderBytes(c)), 0);
const folderFiles = (f: SimFolder): number =>
  f.files + [...f.children.values()].reduce((s, c) => s + (c.mount ? 0 : folderFiles(c)), 0);

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

export interface SimStorageOptions {
  kind: 'jetson' | 'x86';
  /** Time one folder of a scan takes, ms (default 60: '/' takes about 3 s). */
  stepMs?: number;
}

const FOLDER_IDS: readonly ProductDataFolderId[] = ['recordings', 'models', 'cache'];

export function createSimStorage(options: SimStorageOptions): StorageBackend {
  const stepMs = options.stepMs ?? 60;
  const jetson = options.kind === 'jetson';
  const root = build(jetson ? jetsonTree() : x86Tree());

  const find = (path: string): SimFolder | null => {
    let f: SimFolder | undefined = root;
    for (const part of posix.resolve(path).split('/').filter(Boolean)) {
      f = f.children.get(part);
      if (!f) return null;
    }
    return f;
  };

  const disks = (): Filesystem[] => {
    const used = (jetson ? 1.9 * GB : 3.1 * GB) + folderBytes(root);
    const rootSize = jetson ? 57_842_690_048 : 502_468_108_288;
    const fs = (
      mount: string,
      device: string,
      type: string,
      size: number,
      usedBytes: number,
    ): Filesystem => ({
      mount,
      device,
      type,
      size,
      used: Math.round(usedBytes),
      free: Math.max(0, Math.round(size - usedBytes - (type === 'ext4' ? size * 0.05 : 0))),
    });
    return jetson
      ? [fs('/', '/dev/mmcblk0p1', 'ext4', rootSize, used)]
      : [
          fs('/', '/dev/nvme0n1p2', 'ext4', rootSize, used),
          fs('/boot/efi', '/dev/nvme0n1p1', 'vfat', 536_834_048, 6.1 * MB),
          fs('/data', '/dev/sda1', 'ext4', 1_968_874_332_160, 712 * GB),
        ];
  };

  return {
    totals: async () => totalOf(disks()),

    async scan(path, { signal, onProgress }) {
      const start = find(path);
      if (!start) throw new StorageError('not_found', `No such folder: ${path}`);
      const counts: WalkCounts = { files: 0, dirs: 0, bytes: 0, errors: 0 };
      const children = new Map<string, number>();
      const queue: { folder: SimFolder; child: string }[] = [{ folder: start, child: '.' }];
      while (queue.length > 0) {
        throwIfCanceled(signal);
        const { folder, child } = queue.shift()!;
        counts.dirs++;
        counts.files += folder.files;
        counts.bytes += folder.bytes + 4 * KB;
        // The scanned folder's own entry counts in the total only (as in the real walk).
        const own = folder.bytes + (folder === start ? 0 : 4 * KB);
        if (own > 0) children.set(child, (children.get(child) ?? 0) + own);
        for (const [name, sub] of folder.children) {
          if (!sub.mount) queue.push({ folder: sub, child: folder === start ? name : child });
        }
        await sleep(stepMs, signal);
        throwIfCanceled(signal);
        onProgress?.({ ...counts });
      }
      return {
        ...counts,
        children: [...children].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes),
      };
    },

    async productData() {
      return {
        root: SIM_PRODUCT_DATA_ROOT,
        folders: FOLDER_IDS.map((id) => {
          const f = find(`${SIM_PRODUCT_DATA_ROOT}/${id}`)!;
          return { id, path: `${SIM_PRODUCT_DATA_ROOT}/${id}`, bytes: folderBytes(f), files: folderFiles(f) };
        }),
      };
    },

    async deleteProductData(requested) {
      const path = posix.resolve(requested);
      const folderPath = FOLDER_IDS.map((id) => `${SIM_PRODUCT_DATA_ROOT}/${id}`).find(
        (f) => path === f || path.startsWith(`${f}/`),
      );
      if (!folderPath) {
        throw new StorageError(
          'forbidden',
          `Only product data can be deleted (inside ${SIM_PRODUCT_DATA_ROOT}): ${path}`,
        );
      }
      const target = find(path);
      if (!target) throw new StorageError('not_found', `No such file or folder: ${path}`);
      const freed = folderBytes(target);
      const files = folderFiles(target);
      if (path === folderPath) {
        target.bytes = 0;
        target.files = 0;
        target.children.clear();
      } else {
        find(posix.dirname(path))!.children.delete(posix.basename(path));
      }
      return { path, freed, files };
    },

    extraImages: () => simExtraImages(options.kind),
  };
}

/** The sim device's images beside its environments: an inference engine and two companion services. */
export function simExtraImages(kind: 'jetson' | 'x86'): DockerImage[] {
  const image = (id: string, tag: string, size: number): DockerImage => ({
    Id: `sha256:${id.repeat(64 / id.length)}`,
    RepoTags: [tag],
    Size: Math.round(size),
    Created: 1_760_000_000,
  });
  return [
    kind === 'jetson'
      ? image('d5', 'nvcr.io/nvidia/deepstream-l4t:6.3-triton-multiarch', 4.3 * GB)
      : image('7a', 'nvcr.io/nvidia/tritonserver:24.01-py3', 14.1 * GB),
    kind === 'jetson'
      ? image('e8', 'nvcr.io/nvidia/l4t-tensorrt:r8.5.2-runtime', 1.3 * GB)
      : image('e9', 'nvcr.io/nvidia/tensorrt:24.01-py3', 8.2 * GB),
    image('c1', 'eclipse-mosquitto:2.0', 12.4 * MB),
    image('c2', 'redis:7-alpine', 41.2 * MB),
  ];
}
