import { describe, expect, it } from 'vitest';
import { createActor, createMachine, setup } from 'xstate';
import { enqueueDialog, notificationsMachine } from '../../../machines/notifications/notifications.machine';
import { snapshotToView } from '../../../src/console/shell/notifications';

const dialog = (source = 'devicePool') => ({
  type: 'dialog.show' as const,
  title: 'Device is not reachable',
  message: 'can not get any response from your device.',
  source,
});

describe('notifications (toasts and the dialog queue, spec §2)', () => {
  it('keeps each toast until it is dismissed', () => {
    const actor = createActor(notificationsMachine).start();
    actor.send({ type: 'notice.show', title: 'A', message: 'a', variant: 'info', source: 'auth' });
    actor.send({ type: 'notice.show', title: 'B', message: 'b', variant: 'danger', source: 'signal' });
    const [first, second] = snapshotToView(actor.getSnapshot()).toasts;
    expect([first?.title, second?.title]).toEqual(['A', 'B']);
    actor.send({ type: 'notice.dismiss', id: first!.id });
    expect(snapshotToView(actor.getSnapshot()).toasts.map((t) => t.title)).toEqual(['B']);
  });

  it('shows one dialog at a time, the next after the first is closed', () => {
    const actor = createActor(notificationsMachine).start();
    expect(snapshotToView(actor.getSnapshot()).dialog).toBeNull();
    actor.send(dialog());
    actor.send({ ...dialog(), title: 'Second' });
    expect(snapshotToView(actor.getSnapshot()).dialog?.title).toBe('Device is not reachable');
    actor.send({ type: 'dialog.close' });
    expect(snapshotToView(actor.getSnapshot()).dialog?.title).toBe('Second');
    actor.send({ type: 'dialog.close' });
    expect(snapshotToView(actor.getSnapshot()).dialog).toBeNull();
  });

  it('shows one dialog for the same fact reported twice', () => {
    const d = { id: 1, source: 'a', title: 'Device is not reachable', message: 'm' };
    const queue = enqueueDialog(enqueueDialog([], d), { ...d, id: 2, source: 'b' });
    expect(queue).toHaveLength(1);
    expect(enqueueDialog(queue, { ...d, id: 3, message: 'other' })).toHaveLength(2);
  });

  it('tells the source of a dialog that it was closed, when the source asked to be told', () => {
    const told: string[] = [];
    const source = createMachine({
      on: { 'auth.confirmMail.close': { actions: () => told.push('closed') } },
    });
    const parent = setup({ actors: { notifications: notificationsMachine, source } }).createMachine({
      invoke: [
        { src: 'notifications', systemId: 'notifications' },
        { src: 'source', systemId: 'auth' },
      ],
    });
    const root = createActor(parent).start();
    const notifications = root.system.get('notifications')!;
    notifications.send({
      ...dialog('auth'),
      reply: { systemId: 'auth', event: { type: 'auth.confirmMail.close' } },
    });
    notifications.send({ type: 'dialog.close' });
    expect(told).toEqual(['closed']);
    root.stop();
  });
});
