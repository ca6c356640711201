/**
 * The demo app machine on model-based paths (xstate/graph over the real machine), for LLaVA and NanoOWL:
 * devices load (or fail and retry), a device is picked and connected (or has no camera), the live camera plays
 * or fails, §5 an empty chat message is ignored while a filled one streams its tokens into the answer, a
 * NanoOWL prompt detects until cleared; an app the engine cannot run never starts its work.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import { demoAppMachine, type DeviceFacts } from '../../../machines/demoApps/demoApp.machine';
import type { DemoAppName } from '../../../src/protocol/demoApps';
import { createMachineTestModel, runPaths } from '../harness';

type Snap = SnapshotFrom<typeof demoAppMachine>;
const facts = (available: boolean, app: DemoAppName): DeviceFacts => ({
  cameras: [{ camera_id: 'cam-1', name: 'Sim camera 1' }],
  engines: [{ app, engine: 'sim', model: 'm', available, reason: available ? null : 'no model' }],
});

function eventsFor(app: DemoAppName, available: boolean) {
  return (s: Snap, type: string): EventObject[] | undefined => {
    switch (type) {
      case 'xstate.done.actor.0.demoApp.loadingDevices':
        return [{ type, output: [{ device_id: 'd1', label: 'Jetson' }] } as EventObject];
      case 'xstate.done.actor.0.demoApp.connecting':
        return [{ type, output: facts(available, app) } as EventObject];
      case 'xstate.error.actor.0.demoApp.loadingDevices':
      case 'xstate.error.actor.0.demoApp.connecting':
        return [{ type, error: new Error('Could not get an answer from the device') } as EventObject];
      case 'device.pick':
        return [{ type, deviceId: 'd1' } as EventObject];
      case 'camera.pick':
        return [{ type, cameraId: 'cam-1' } as EventObject];
      case 'camera.playing':
        return [{ type, mediaStream: {} } as EventObject];
      case 'camera.failed':
      case 'work.failed':
        return [{ type, error: 'boom' } as EventObject];
      case 'chat.send':
        return app === 'llava'
          ? ([
              { type, text: '   ' },
              { type, text: 'What do you see?' },
            ] as unknown as EventObject[])
          : [];
      case 'chat.token':
        return s.context.partial ? [] : [{ type, token: 'A ' } as EventObject];
      case 'chat.done':
        return [{ type, answer: 'A red car.' } as EventObject];
      case 'prompt.set':
        return app === 'nanoowl' ? ([{ type, prompt: 'car' }] as unknown as EventObject[]) : [];
      case 'detect.result':
        return [
          {
            type,
            result: { at: 1, queries: ['car'], detections: [], engine: 'sim', model: 'm' },
          } as EventObject,
        ];
      case 'lines.set':
      case 'distance.set':
      case 'speed.start':
      case 'city.start':
      case 'speed.result':
      case 'city.result':
      case 'app.open':
      case 'app.retry':
      case 'prompt.clear':
      case 'chat.clear':
        return type === 'app.open' || type === 'app.retry' || type === 'prompt.clear' ? [{ type }] : [];
      default:
        return undefined;
    }
  };
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.messages.length,
    s.context.partial,
    s.context.prompt,
    !!s.context.mediaStream,
  ]);

for (const app of ['llava', 'nanoowl'] as const) {
  describe(`demo app machine: ${app} (model-based paths)`, () => {
    for (const available of [true, false]) {
      const machine = demoAppMachine.provide({});
      const model = createMachineTestModel(machine, {
        events: eventsFor(app, available),
        key,
        input: { app },
      });
      it(`follows every modelled path (engine available: ${available})`, async () => {
        const paths = model.getShortestPaths({
          toState: (s) => typeof s.value === 'object',
        });
        expect(paths.length).toBeGreaterThan(0);
        const steps = await runPaths(
          paths.slice(0, 40),
          (driver) =>
            createActor(
              demoAppMachine.provide({
                actors: {
                  loadDevices: driver.promise('0.demoApp.loadingDevices'),
                  connectDevice: driver.promise('0.demoApp.connecting'),
                  liveCamera: driver.callback('liveCamera'),
                  detectLoop: driver.callback('detectLoop'),
                  askLlava: driver.callback('askLlava'),
                  measureLoop: driver.callback('measureLoop'),
                  observeLoop: driver.callback('observeLoop'),
                },
              }),
              { input: { app }, clock: driver.clock },
            ).start(),
          key,
        );
        expect(steps).toBeGreaterThan(0);
      });
    }
  });
}

describe('demo app machine: direct checks', () => {
  it('ignores an empty chat message (§5) and streams a filled one', async () => {
    const actor = createActor(
      demoAppMachine.provide({
        actors: {
          loadDevices: (await import('xstate')).fromPromise(async () => [{ device_id: 'd1', label: 'J' }]),
          connectDevice: (await import('xstate')).fromPromise(async () => facts(true, 'llava')),
          liveCamera: (await import('xstate')).fromCallback(() => () => undefined),
          askLlava: (await import('xstate')).fromCallback(() => () => undefined),
        },
      }),
      { input: { app: 'llava' } },
    ).start();
    actor.send({ type: 'app.open' });
    await new Promise((r) => setTimeout(r, 10));
    actor.send({ type: 'device.pick', deviceId: 'd1' });
    await new Promise((r) => setTimeout(r, 10));
    actor.send({ type: 'chat.send', text: '  ' });
    expect(actor.getSnapshot().context.messages).toHaveLength(0);
    actor.send({ type: 'chat.send', text: 'What do you see?' });
    expect(actor.getSnapshot().matches({ ready: { work: 'answering' } })).toBe(true);
    actor.send({ type: 'chat.token', token: 'A ' });
    actor.send({ type: 'chat.token', token: 'car.' });
    expect(actor.getSnapshot().context.partial).toBe('A car.');
    actor.send({ type: 'chat.done', answer: 'A car.' });
    expect(actor.getSnapshot().context.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    actor.stop();
  });

  it('never starts the work of an app the engine cannot run', async () => {
    const { fromPromise, fromCallback } = await import('xstate');
    const actor = createActor(
      demoAppMachine.provide({
        actors: {
          loadDevices: fromPromise(async () => [{ device_id: 'd1', label: 'J' }]),
          connectDevice: fromPromise(async () => facts(false, 'nanoowl')),
          liveCamera: fromCallback(() => () => undefined),
        },
      }),
      { input: { app: 'nanoowl' } },
    ).start();
    actor.send({ type: 'app.open' });
    await new Promise((r) => setTimeout(r, 10));
    actor.send({ type: 'device.pick', deviceId: 'd1' });
    await new Promise((r) => setTimeout(r, 10));
    actor.send({ type: 'prompt.set', prompt: 'car' });
    expect(actor.getSnapshot().matches({ ready: { work: 'idle' } })).toBe(true);
    actor.stop();
  });
});
