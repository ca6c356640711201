/**
 * Demo models (issue 9: "npm start seeds the demo account with a couple of models with real small files"), so
 * /models is not empty and a deploy can be tried:
 * - `demo-people-detector` (object-detection, ONNX, classes person/bicycle/car → an M id, 640x640): a real,
 *   valid ONNX graph (`y = x + w`, opset 13) whose 400,000-float initializer makes it 1.6 MB, enough to watch a
 *   download's progress; it stands in for a detector and detects nothing.
 * - `demo-tiny-llm` (llm, GGUF, no classes → a P id): a real GGUF v3 header with its metadata and no tensors.
 * Idempotent by (owner, name).
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { models, users } from '../db/schema';
import { addModelVersion, modelsDir, type ModelMeta } from './store';

// ---- protobuf (ONNX is a protobuf message) ----
const varint = (n: number): number[] => {
  const out: number[] = [];
  let v = n;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
};
const key = (field: number, wire: number) => Buffer.from(varint(field * 8 + wire));
const int = (field: number, n: number) => Buffer.concat([key(field, 0), Buffer.from(varint(n))]);
const bytes = (field: number, b: Buffer | string) => {
  const buf = typeof b === 'string' ? Buffer.from(b, 'utf8') : b;
  return Buffer.concat([key(field, 2), Buffer.from(varint(buf.length)), buf]);
};
const msg = (field: number, ...parts: Buffer[]) => bytes(field, Buffer.concat(parts));

/** A valid ONNX model `y = Add(x, w)` over `n` floats (ir_version 7, opset 13). */
export function demoOnnx(n: number): Buffer {
  const weights = Buffer.alloc(n * 4);
  for (let i = 0; i < n; i++) weights.writeFloatLE(Math.sin(i / 97), i * 4);
  const valueInfo = (field: number, name: string) =>
    msg(field, bytes(1, name), msg(2, msg(1, int(1, 1), msg(2, msg(1, int(1, n))))));
  const graph = Buffer.concat([
    msg(1, bytes(1, 'x'), bytes(1, 'w'), bytes(2, 'y'), bytes(3, 'add'), bytes(4, 'Add')),
    bytes(2, 'demo_people_detector'),
    msg(5, int(1, n), int(2, 1), bytes(8, 'w'), bytes(9, weights)),
    valueInfo(11, 'x'),
    valueInfo(12, 'y'),
  ]);
  return Buffer.concat([
    int(1, 7),
    bytes(2, 'edge-console-demo'),
    msg(7, graph),
    msg(8, bytes(1, ''), int(2, 13)),
  ]);
}

/** A valid GGUF v3 file with metadata `general.architecture` and `general.name` and no tensors. */
export function demoGguf(): Buffer {
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    return b;
  };
  const u64 = (n: number) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    return b;
  };
  const str = (s: string) => Buffer.concat([u64(Buffer.byteLength(s)), Buffer.from(s)]);
  const kv = (k: string, v: string) => Buffer.concat([str(k), u32(8), str(v)]);
  return Buffer.concat([
    Buffer.from('GGUF'),
    u32(3),
    u64(0),
    u64(2),
    kv('general.architecture', 'llama'),
    kv('general.name', 'demo-tiny-llm'),
  ]);
}

const DEMO_MODELS: { meta: ModelMeta; fileName: string; build: () => Buffer }[] = [
  {
    meta: {
      kind: 'new-model',
      name: 'demo-people-detector',
      task: 'object-detection',
      format: 'onnx',
      classes: ['person', 'bicycle', 'car'],
      input_width: 640,
      input_height: 640,
      description:
        'A demo ONNX graph (y = x + w, 1.6 MB) standing in for a people detector: deploy it to a device to watch the download.',
      notes: 'First version.',
    },
    fileName: 'people-detector.onnx',
    build: () => demoOnnx(400_000),
  },
  {
    meta: {
      kind: 'new-model',
      name: 'demo-tiny-llm',
      task: 'llm',
      format: 'gguf',
      classes: [],
      input_width: null,
      input_height: null,
      description: 'A GGUF v3 file with its metadata and no tensors: a language model entry for /llm-models.',
      notes: '',
    },
    fileName: 'tiny-llm-q4.gguf',
    build: demoGguf,
  },
];

/** Adds the demo models to `ownerId` (each once, by name). */
export async function ensureDemoModels(ctx: ServerContext, ownerId: string): Promise<void> {
  const [owner] = await ctx.db.select().from(users).where(eq(users.id, ownerId)).limit(1);
  if (!owner) return;
  await mkdir(modelsDir(ctx), { recursive: true });
  for (const demo of DEMO_MODELS) {
    if (demo.meta.kind !== 'new-model') continue;
    const [exists] = await ctx.db
      .select({ id: models.id })
      .from(models)
      .where(and(eq(models.ownerId, ownerId), eq(models.name, demo.meta.name)))
      .limit(1);
    if (exists) continue;
    const data = demo.build();
    const file = path.join(modelsDir(ctx), `.seed-${randomUUID()}`);
    await writeFile(file, data, { mode: 0o600 });
    await addModelVersion(
      ctx,
      owner,
      {
        path: file,
        size: data.length,
        sha256: createHash('sha256').update(data).digest('hex'),
        fileName: demo.fileName,
      },
      demo.meta,
    );
  }
}
