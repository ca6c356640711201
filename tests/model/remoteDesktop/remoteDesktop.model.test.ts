/**
 * The remoteDesktop machine on model-based paths (xstate/graph through tests/model/harness.ts): idle → open
 * (connecting → live ⇄ failed → retry), the window list and closing a window, keyboard capture and release,
 * full screen, another device, close. Input reaches the input sender only while live, keys only while
 * captured.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, type EventObject, type SnapshotFrom } from 'xstate';
import {
  remoteDesktopMachine,
  type DesktopDeviceInput,
  type DesktopInputEvent,
} from '../../../machines/remoteDesktop/remoteDesktop.machine';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof remoteDesktopMachine>;
const stream = {} as MediaStream;
const ev = (e: object) => [e] as unknown as EventObject[];

function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  const c = s.context;
  switch (type) {
    case 'desktop.open':
      return c.run >= 2
        ? []
        : ev({ type, deviceId: c.deviceId === 'dev-1' ? 'dev-2' : 'dev-1', label: 'Box' });
    case 'desktop.retry':
      return c.run >= 2 ? [] : undefined;
    case 'session.started':
      return ev({ type, mediaStream: stream, width: 1280, height: 720 });
    case 'session.failed':
    case 'stream.ended':
      return ev({ type, error: 'Stream connection failed.' });
    case 'windows.loaded':
      return c.windows.length ? [] : ev({ type, reply: { backend: 'sim', screen: { width: 1280, height: 720 }, windows: [{ id: 'w1', title: 'Notes', x: 0, y: 0, width: 0.5, height: 0.5, focused: true }] } }); // prettier-ignore
    case 'windows.close':
      return c.windows.length ? ev({ type, windowId: 'w1' }) : [];
    case 'xstate.done.actor.closeWindow':
      return ev({ type, output: { closed: true } });
    case 'view.fullScreen':
      return ev({ type, on: !c.fullScreen });
    case 'stats.sample':
    case 'windows.failed':
    case 'input.failed':
    case 'input.mouse':
    case 'input.drag':
    case 'input.scroll':
    case 'input.keyboard':
      return [];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([s.value, s.context.deviceId, s.context.run, s.context.windows.length, s.context.closingId, s.context.fullScreen, s.context.error]); // prettier-ignore

describe('remoteDesktop (model-based paths)', () => {
  const model = createMachineTestModel(remoteDesktopMachine, { events: eventsFor, key });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches live, failed, a retry, a listed and a closing window, captured keys and full screen', () => {
    const ends = paths.map((p) => p.state);
    expect(ends.some((s) => s.hasTag('live') && s.hasTag('captured'))).toBe(true);
    expect(ends.some((s) => s.hasTag('error') && s.context.error === 'Stream connection failed.')).toBe(true);
    expect(ends.some((s) => s.context.run === 2 && s.hasTag('busy'))).toBe(true);
    expect(ends.some((s) => s.context.closingId === 'w1')).toBe(true);
    expect(ends.some((s) => s.context.fullScreen)).toBe(true);
    expect(ends.some((s) => s.matches('idle') && s.context.run > 0)).toBe(true);
  });

  it('follows every path on the real machine; a session per run with its own callId', async () => {
    const sessions: string[] = [];
    const start = (driver: Driver) =>
      createActor(
        remoteDesktopMachine.provide({
          actors: {
            desktopSession: fromCallback(({ input }) => {
              sessions.push(input.callId);
              return () => undefined;
            }),
            input: fromCallback(() => () => undefined),
            windowList: fromCallback(() => () => undefined),
            closeWindow: driver.promise('closeWindow'),
          },
        }),
        { clock: driver.clock },
      ).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    expect(sessions).toContain('desktop-dev-1-1');
    expect(sessions).toContain('desktop-dev-1-2');
  });

  it('forwards input only while live, and keys only while the keyboard is captured', () => {
    const got: DesktopInputEvent[] = [];
    const actor = createActor(
      remoteDesktopMachine.provide({
        actors: {
          desktopSession: fromCallback(() => () => undefined),
          input: fromCallback<DesktopInputEvent, DesktopDeviceInput>(({ receive }) => {
            receive((e) => got.push(e));
            return () => undefined;
          }),
          windowList: fromCallback(() => () => undefined),
        },
      }),
    ).start();
    const click = {
      type: 'input.mouse',
      payload: { action: 'click', button: 'left', x: 0.5, y: 0.5 },
    } as const;
    const key = { type: 'input.keyboard', payload: { action: 'text', text: 'a' } } as const;
    actor.send({ type: 'desktop.open', deviceId: 'dev-1', label: 'Box' });
    actor.send(click);
    expect(got).toHaveLength(0);
    actor.send({ type: 'session.started', mediaStream: stream, width: 1280, height: 720 });
    actor.send(click);
    actor.send(key);
    expect(got.map((e) => e.type)).toEqual(['input.mouse']);
    actor.send({ type: 'keyboard.capture' });
    actor.send(key);
    actor.send({ type: 'keyboard.release' });
    actor.send(key);
    expect(got.map((e) => e.type)).toEqual(['input.mouse', 'input.keyboard']);
    actor.stop();
  });
});
