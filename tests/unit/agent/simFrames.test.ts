import { describe, expect, it } from 'vitest';
import { createSimBackend } from '../../../src/agent/backends/sim/backend';
import { SyntheticFrameGenerator } from '../../../src/agent/backends/sim/frames';
import { createScene, hashSeed, sceneObjectsAt } from '../../../src/agent/backends/sim/scene';
import { STANDARD_RESOLUTIONS } from '../../../src/agent/backends/resolutions';
import { snapshotDataUrl, SNAPSHOT_MAX_CHARS } from '../../../src/agent/commands/snapshot';

const scene = createScene(hashSeed('sim-dev-1-cam-1'));

describe('synthetic camera frames', () => {
  it.each(STANDARD_RESOLUTIONS.map((r) => [r.width, r.height]))(
    'gives exactly width*height*1.5 bytes at %ix%i, in a buffer of its own',
    (w, h) => {
      const frame = new SyntheticFrameGenerator(scene, w, h).draw(Date.now());
      expect(frame.width).toBe(w);
      expect(frame.height).toBe(h);
      expect(frame.data.byteLength).toBe(w * h * 1.5);
      expect(frame.data.buffer.byteLength).toBe(w * h * 1.5);
    },
  );

  it('moves its objects between frames', () => {
    const gen = new SyntheticFrameGenerator(scene, 640, 480);
    const a = gen.draw(1_000_000);
    const first = Buffer.from(a.data);
    const boxesA = gen.lastObjects();
    gen.draw(1_000_500);
    const boxesB = gen.lastObjects();
    expect(boxesB).not.toEqual(boxesA);
    expect(Buffer.compare(first, Buffer.from(gen.frame.data))).not.toBe(0);
  });

  it('draws each object where its bounding box says', () => {
    const gen = new SyntheticFrameGenerator(scene, 640, 480);
    const frame = gen.draw(2_000_000);
    const boxes = gen.lastObjects();
    const top = boxes[boxes.length - 1]!; // drawn last, so nothing covers it
    const cx = top.x + (top.width >> 1);
    const cy = top.y + (top.height >> 1);
    const [Y] = scene.objects[boxes.length - 1]!.yuv;
    expect(frame.data[cy * 640 + cx]).toBe(Y);
  });

  it('reports boxes inside the frame that are a pure function of time', () => {
    for (const t of [0, 1234, 98_765, 5e12]) {
      const boxes = sceneObjectsAt(scene, 320, 240, t);
      expect(boxes).toEqual(sceneObjectsAt(scene, 320, 240, t));
      for (const b of boxes) {
        expect(b.x).toBeGreaterThanOrEqual(0);
        expect(b.y).toBeGreaterThanOrEqual(0);
        expect(b.x + b.width).toBeLessThanOrEqual(320);
        expect(b.y + b.height).toBeLessThanOrEqual(240);
      }
    }
  });

  it('encodes a still picture as a PNG data URL small enough for the device link', () => {
    const frame = new SyntheticFrameGenerator(scene, 320, 240).draw(Date.now());
    const still = snapshotDataUrl(frame);
    expect(still.image.startsWith('data:image/png;base64,iVBORw0KGgo')).toBe(true);
    expect(still.image.length).toBeLessThanOrEqual(SNAPSHOT_MAX_CHARS);
    expect(still.width * 3).toBe(still.height * 4);
    expect(Buffer.from(still.image.split(',')[1]!, 'base64').readUInt32BE(16)).toBe(still.width);
  });
});

describe('simulated device', () => {
  it('has 2 to 4 cameras with distinct ids', () => {
    expect(createSimBackend({ deviceId: 'd', kind: 'x86', cameras: 1, label: 'x' }).cameras).toHaveLength(2);
    const cams = createSimBackend({ deviceId: 'd', kind: 'x86', cameras: 9, label: 'x' }).cameras;
    expect(new Set(cams.map((c) => c.cameraId)).size).toBe(4);
  });

  it('shows one shared physical camera with the same unique_id and picture on every device that sees it', async () => {
    const gate = createSimBackend({
      deviceId: 'dev-a',
      kind: 'jetson',
      cameras: 3,
      label: 'a',
      sharedCamera: 'usb-3-lobby',
    });
    const box = createSimBackend({
      deviceId: 'dev-b',
      kind: 'x86',
      cameras: 2,
      label: 'b',
      sharedCamera: 'usb-3-lobby',
    });
    expect([gate.cameras[0]!.uniqueId, box.cameras[0]!.uniqueId]).toEqual(['usb-3-lobby', 'usb-3-lobby']);
    expect(gate.cameras[0]!.scene).toEqual(box.cameras[0]!.scene);
    expect(gate.cameras[1]!.uniqueId).not.toBe(box.cameras[1]!.uniqueId);
    const qvga = { pixel_format: 'I420', width: 320, height: 240, fps: 30 };
    const t = Date.UTC(2026, 0, 1, 12);
    const a = gate.cameras[0]!.objectsAt(320, 240, t);
    expect(box.cameras[0]!.objectsAt(320, 240, t)).toEqual(a);
    expect((await gate.cameras[0]!.grabFrame(qvga)).data.byteLength).toBe(320 * 240 * 1.5);
  });

  it('reports jtop only on a Jetson', async () => {
    const jetson = createSimBackend({
      deviceId: 'd',
      kind: 'jetson',
      cameras: 2,
      label: 'x',
      jetpack: '6.0',
    });
    const x86 = createSimBackend({ deviceId: 'd', kind: 'x86', cameras: 2, label: 'x' });
    await expect(jetson.jtop(0)).resolves.toMatchObject({ available: true, jetpack: '6.0' });
    await expect(x86.jtop(0)).resolves.toMatchObject({ available: false });
    const usage = await x86.usages(3);
    expect(usage.gpus[0]!.utilisation).toBeGreaterThan(0);
    expect(usage.cpu).toBeLessThanOrEqual(100);
  });
});
