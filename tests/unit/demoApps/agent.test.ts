/**
 * The device's demo apps on the sim engine against a real synthetic camera (SimCamera): NanoOWL finds what
 * the prompt names (synonyms, colours) and nothing for an absent class; LLaVA's answer names every object,
 * its count and colour, streamed word by word; the speed of a vehicle between two lines equals the distance
 * over the time between its true crossings; host devices report what they lack; bad windows are refused.
 */
import { describe, expect, it } from 'vitest';
import { SimCamera } from '../../../src/agent/backends/sim/camera';
import { createDemoApps } from '../../../src/agent/demoApps';
import { answerQuestion, countPhrase } from '../../../src/agent/demoApps/llava';
import { parseQuery, splitPrompt } from '../../../src/agent/demoApps/owl';
import { measurePasses, segmentCut } from '../../../src/agent/demoApps/speed';
import { truthAt, type TruthObject } from '../../../src/agent/demoApps/truth';

const camera = new SimCamera('dev-test', 1);
const T = 1_700_000_000_000;

function apps(now = T, mode: 'sim' | 'host' = 'sim') {
  return createDemoApps({
    mode,
    findCamera: (id) => (id === camera.cameraId ? camera : undefined),
    installed: async () => [],
    now: () => now,
  });
}

describe('NanoOWL (sim)', () => {
  it('splits prompts and reads labels, synonyms and colours', () => {
    expect(splitPrompt('A person, the red car and ball')).toEqual(['a person', 'the red car', 'ball']);
    expect(parseQuery('people')).toMatchObject({ label: 'person' });
    expect(parseQuery('a vehicle')).toMatchObject({ label: 'car', exact: false });
    expect(parseQuery('the red car')).toMatchObject({ label: 'car', exact: true, colour: 'red' });
    expect(parseQuery('giraffe').label).toBeNull();
  });

  it('answers the true boxes of the prompted class only', async () => {
    const truth = truthAt(camera, T);
    const cars = truth.filter((o) => o.label === 'car');
    expect(cars.length).toBeGreaterThan(0);
    const r = await apps().detect(camera.cameraId, 'a car', 0.3);
    expect(r.detections.map((d) => d.box)).toEqual(cars.map((c) => c.box));
    expect(r.detections.every((d) => d.label === 'car')).toBe(true);
    expect((await apps().detect(camera.cameraId, 'giraffe', 0.3)).detections).toEqual([]);
    const colour = cars[0]!.colour;
    expect((await apps().detect(camera.cameraId, `${colour} car`, 0.3)).detections).toHaveLength(
      cars.filter((c) => c.colour === colour).length,
    );
    expect((await apps().detect(camera.cameraId, 'car', 0.95)).detections).toEqual([]);
  });

  it('refuses an unknown camera and host devices without a model', async () => {
    await expect(apps().detect('nope', 'car', 0.3)).rejects.toMatchObject({ code: 'not_found' });
    await expect(apps(T, 'host').detect(camera.cameraId, 'car', 0.3)).rejects.toMatchObject({
      code: 'not_available',
      message: expect.stringContaining('OWL-ViT'),
    });
    const info = await apps(T, 'host').info();
    expect(info.every((i) => i.engine === 'host' && !i.available && i.reason)).toBe(true);
    expect((await apps().info()).every((i) => i.engine === 'sim' && i.available)).toBe(true);
  });
});

describe('LLaVA (sim)', () => {
  const objs: TruthObject[] = [
    {
      trackId: 1,
      pass: 0,
      label: 'person',
      colour: 'red',
      box: [0.05, 0.05, 0.1, 0.2],
      column: 'left',
      row: 'top',
      attributes: {},
    },
    {
      trackId: 2,
      pass: 0,
      label: 'car',
      colour: 'blue',
      box: [0.45, 0.4, 0.1, 0.1],
      column: 'centre',
      row: 'middle',
      attributes: {},
    },
    {
      trackId: 3,
      pass: 0,
      label: 'person',
      colour: 'green',
      box: [0.8, 0.8, 0.1, 0.1],
      column: 'right',
      row: 'bottom',
      attributes: {},
    },
  ];
  it('composes answers from the truth', () => {
    expect(countPhrase(objs)).toBe('two people and one car');
    expect(answerQuestion(objs, 'What do you see?')).toBe(
      'The camera shows two people and one car: a red person on the left, near the top, a blue car in the centre and a green person on the right, near the bottom.',
    );
    expect(answerQuestion(objs, 'How many people are there?')).toBe('I can see two people in the frame.');
    expect(answerQuestion(objs, 'What colour is the car?')).toBe('The car is blue.');
    expect(answerQuestion(objs, 'Where is the ball?')).toBe('There is no ball in the frame.');
  });

  it('streams the answer word by word over the real camera', async () => {
    const tokens: string[] = [];
    const r = await apps().chat(camera.cameraId, [{ role: 'user', content: 'Describe the scene' }], (t) =>
      tokens.push(t),
    );
    expect(tokens.join('')).toBe(r.answer);
    expect(tokens.length).toBeGreaterThan(5);
    for (const o of truthAt(camera, T)) expect(r.answer).toContain(`${o.colour} ${o.label}`);
  });
});

describe('speed (sim)', () => {
  it('cuts segments', () => {
    expect(segmentCut([0, 0.5], [1, 0.5], [0.5, 0], [0.5, 1])).toBeCloseTo(0.5);
    expect(segmentCut([0, 0.5], [0.4, 0.5], [0.5, 0], [0.5, 1])).toBeNull();
  });

  it('gives distance / time between the true crossings', () => {
    // One car moving right at 0.1 frame widths per second, centre at y 0.5.
    const at = (t: number): TruthObject[] => [
      {
        trackId: 7,
        pass: 0,
        label: 'car',
        colour: 'red',
        box: [((t - T) / 1000) * 0.1, 0.45, 0.04, 0.1],
        column: 'left',
        row: 'middle',
        attributes: { plate: '34 ABC 12' },
      },
      {
        trackId: 8,
        pass: 0,
        label: 'person',
        colour: 'red',
        box: [((t - T) / 1000) * 0.1, 0.45, 0.04, 0.1],
        column: 'left',
        row: 'middle',
        attributes: {},
      },
    ];
    // Lines at x 0.3 and 0.5 (centre crosses them at 2.8 s and 4.8 s): 20 m in 2 s = 36 km/h.
    const passes = measurePasses(
      at,
      T,
      T + 8000,
      [
        [0.3, 0],
        [0.3, 1],
      ],
      [
        [0.5, 0],
        [0.5, 1],
      ],
      20,
    );
    expect(passes).toHaveLength(1);
    expect(passes[0]).toMatchObject({ track_id: 7, direction: 'a→b', speed_kmh: 36, plate: '34 ABC 12' });
    expect(passes[0]!.t_first).toBe(T + 2800);
  });

  it('refuses windows in the future or over ten minutes', async () => {
    const line: [[number, number], [number, number]] = [
      [0, 0.5],
      [1, 0.5],
    ];
    await expect(apps().speed(camera.cameraId, T + 1, line, line, 10)).rejects.toMatchObject({
      code: 'invalid_payload',
    });
    await expect(apps().speed(camera.cameraId, T - 700_000, line, line, 10)).rejects.toMatchObject({
      code: 'invalid_payload',
    });
    const r = await apps().speed(
      camera.cameraId,
      T - 60_000,
      [
        [0.3, 0],
        [0.3, 1],
      ],
      [
        [0.6, 0],
        [0.6, 1],
      ],
      15,
    );
    expect(r.passes.every((p) => p.label === 'car' && p.speed_kmh > 0)).toBe(true);
  });
});
