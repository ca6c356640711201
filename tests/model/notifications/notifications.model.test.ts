import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import { notificationsMachine } from '../../../machines/notifications/notifications.machine';
import { createMachineTestModel, runPaths } from '../harness';

type Snap = SnapshotFrom<typeof notificationsMachine>;

/** State + how many toasts and dialogs are held (two at most, so the model stays small). */
const key = (s: Snap) =>
  JSON.stringify([s.value, s.context.toasts.length, s.context.dialogs.map((d) => d.title)]);

function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'notice.show':
      return s.context.toasts.length < 2
        ? [{ type, title: 'T', message: 'm', variant: 'info', source: 'auth' } as EventObject]
        : [];
    case 'notice.dismiss':
      return s.context.toasts.map((t) => ({ type, id: t.id }) as EventObject);
    case 'dialog.show':
      // 'A' twice is one dialog (the same fact reported twice); 'B' queues behind it.
      return s.context.dialogs.length < 2
        ? ['A', 'B'].map((title) => ({ type, title, message: 'm', source: 'devicePool' }) as EventObject)
        : [];
    default:
      return undefined;
  }
}

const model = createMachineTestModel(notificationsMachine, { events: eventsFor, key });

describe('notifications (model-based paths)', () => {
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches a queue of two dialogs and a dialog shown with toasts on screen', () => {
    expect(paths.some((p) => p.state.context.dialogs.length === 2)).toBe(true);
    expect(paths.some((p) => p.state.hasTag('dialog') && p.state.context.toasts.length > 0)).toBe(true);
  });

  it('follows every modelled path on the real machine', async () => {
    const steps = await runPaths(
      paths,
      (driver) => createActor(notificationsMachine, { clock: driver.clock }).start(),
      key,
    );
    expect(steps).toBeGreaterThan(paths.length);
  });
});
