import { describe, expect, it } from 'vitest';
import {
  createScene,
  hashSeed,
  PERSON_POPULATION,
  sceneObjectsAt,
  trackSpeed,
} from '../../../src/agent/backends/sim/scene';
import { countCrossings, lineCrossings, objectsSeen } from '../../../src/agent/backends/sim/sceneTruth';
import { crossingDirection } from '../../../src/protocol/analyticsGeometry';

const scene = createScene(hashSeed('sim-dev-1-cam-1'));
const T0 = 1_800_000_000_000;
const vertical = { x1: 0.5, y1: 0, x2: 0.5, y2: 1 };

describe('scene truth (issue 11)', () => {
  it('keeps the bouncing objects of the first scenes and adds a walker and a car that cross', () => {
    const boxes = sceneObjectsAt(scene, 640, 480, T0);
    expect(boxes.map((b) => b.track)).toEqual(boxes.map((_, i) => i + 1));
    const crossers = scene.objects.filter((o) => o.motion === 'cross');
    expect(crossers.map((o) => o.label)).toEqual(['person', 'car']);
    // the colours stay distinct, so the frames tell the objects apart
    expect(new Set(scene.objects.map((o) => o.yuv.join())).size).toBe(scene.objects.length);
  });

  it('gives people a stable identity with age band and gender, and cars a plate', () => {
    for (const b of sceneObjectsAt(scene, 640, 480, T0)) {
      if (b.label === 'person') {
        expect(b.attributes).toMatchObject({ identity: expect.stringMatching(/^person-\d+$/) });
        const n = Number((b.attributes as { identity: string }).identity.slice(7));
        expect(n).toBeGreaterThanOrEqual(1);
        expect(n).toBeLessThanOrEqual(PERSON_POPULATION);
      } else if (b.label === 'car')
        expect(b.attributes).toMatchObject({ plate: expect.stringMatching(/^[A-Z]{2}-\d{4}$/) });
      else expect(b.attributes).toBeUndefined();
    }
    // the same instant gives the same truth; a bouncing person keeps its identity
    expect(sceneObjectsAt(scene, 640, 480, T0 + 5000)[0]!.attributes).toEqual(
      sceneObjectsAt(scene, 640, 480, T0)[0]!.attributes,
    );
  });

  it('moves a crossing object monotonically across the frame in a pass, then starts a new one', () => {
    const track = scene.objects.findIndex((o) => o.motion === 'cross') + 1;
    let prev = sceneObjectsAt(scene, 640, 480, T0)[track - 1]!;
    let passes = 0;
    for (let t = T0 + 50; t < T0 + 60_000; t += 50) {
      const b = sceneObjectsAt(scene, 640, 480, t)[track - 1]!;
      expect(b.width).toBeGreaterThanOrEqual(2);
      if (b.pass !== prev.pass) {
        passes++;
        expect(b.attributes).not.toEqual(prev.attributes);
      }
      prev = b;
    }
    expect(passes).toBeGreaterThan(4);
  });

  it('finds each crossing of a line once, in the direction of motion', () => {
    const crossings = lineCrossings(scene, 640, 480, vertical, T0, T0 + 30_000, { labels: ['person'] });
    expect(crossings.length).toBeGreaterThan(2);
    for (const c of crossings) {
      const before = sceneObjectsAt(scene, 640, 480, c.timeMs - 10)[c.track - 1]!;
      const after = sceneObjectsAt(scene, 640, 480, c.timeMs)[c.track - 1]!;
      const cx = (b: typeof before) => (b.x + b.width / 2) / 640;
      // "in" for a top-to-bottom line is left to right
      expect(c.direction).toBe(cx(after) > cx(before) ? 'in' : 'out');
      expect(cx(before) < 0.5 !== cx(after) < 0.5).toBe(true);
    }
    const counts = countCrossings(crossings);
    expect(counts.in + counts.out).toBe(crossings.length);
    // a line drawn the other way swaps in and out
    const reversed = lineCrossings(scene, 640, 480, { x1: 0.5, y1: 1, x2: 0.5, y2: 0 }, T0, T0 + 30_000, {
      labels: ['person'],
    });
    expect(countCrossings(reversed)).toEqual({ in: counts.out, out: counts.in });
  });

  it('counts a segment only where the path passes through it', () => {
    expect(crossingDirection(vertical, { x: 0.4, y: 0.5 }, { x: 0.6, y: 0.5 })).toBe('in');
    expect(crossingDirection(vertical, { x: 0.6, y: 0.5 }, { x: 0.4, y: 0.5 })).toBe('out');
    const short = { x1: 0.5, y1: 0, x2: 0.5, y2: 0.2 };
    expect(crossingDirection(short, { x: 0.4, y: 0.5 }, { x: 0.6, y: 0.5 })).toBeNull();
    expect(crossingDirection(vertical, { x: 0.4, y: 0.5 }, { x: 0.45, y: 0.5 })).toBeNull();
  });

  it('lists the vehicles seen with their plates and speeds in pixels per second', () => {
    const cars = objectsSeen(scene, 640, 480, T0, T0 + 20_000, { labels: ['car'] });
    const crossing = scene.objects.findIndex((o) => o.motion === 'cross' && o.label === 'car') + 1;
    const passes = cars.filter((c) => c.track === crossing);
    expect(passes.length).toBeGreaterThan(3);
    const o = scene.objects[crossing - 1]!;
    const w = 2 * Math.round((o.widthFrac * 640) / 2);
    expect(trackSpeed(scene, 640, 480, crossing)).toBeCloseTo(((640 + w - 4) * 1000) / o.passMs!, 6);
    // the box really moves at that speed (measured across the middle of a pass)
    const mid = passes[1]!;
    const t = Math.round((mid.firstMs + mid.lastMs) / 2);
    const a = sceneObjectsAt(scene, 640, 480, t)[crossing - 1]!;
    const b = sceneObjectsAt(scene, 640, 480, t + 1000)[crossing - 1]!;
    if (b.pass === a.pass && a.width === w && b.width === w)
      expect(Math.abs(Math.abs(b.x - a.x) - mid.speed)).toBeLessThanOrEqual(2);
  });
});
