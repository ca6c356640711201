/**
 * Forwards the `notice` and `dialog` emissions (machines/notifications/emitted.ts) of the actors the
 * features list (their index.ts `notices`) to the notifications actor, which holds the toasts and the
 * dialog queue. Child actors of a source (one connection per device…) are followed as they come and go.
 */
import type { AnyActorRef, Subscription } from 'xstate';
import type { DialogEmitted, NoticeEmitted } from '../../../machines/notifications/emitted';
import type { NotificationsEvent } from '../../../machines/notifications/notifications.machine';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import type { NoticeSource } from '../features/feature';
import { actorOf, type ConsoleSystem } from './SystemProvider';

/** Subscribes to every source; returns a function that ends every subscription. */
export function forwardNotices(system: ConsoleSystem, sources: readonly NoticeSource[]): () => void {
  const notifications = actorOf<AnyActorRef>(system, SYSTEM_IDS.notifications);
  const post = (event: NotificationsEvent) => notifications.send(event);

  const listen = (ref: AnyActorRef, source: NoticeSource): Subscription[] => [
    ref.on('notice', (e: NoticeEmitted) =>
      post({
        type: 'notice.show',
        title: e.title,
        message: e.message,
        variant: e.variant,
        source: source.systemId,
        ...(e.i18n ? { i18n: e.i18n } : {}),
      }),
    ),
    ref.on('dialog', (e: DialogEmitted) =>
      post({
        type: 'dialog.show',
        title: e.title,
        message: e.message,
        source: source.systemId,
        ...(source.onDialogClose
          ? { reply: { systemId: source.systemId, event: source.onDialogClose } }
          : {}),
      }),
    ),
  ];

  const ends: Array<() => void> = [];
  for (const source of sources) {
    const ref = actorOf<AnyActorRef>(system, source.systemId);
    const own = listen(ref, source);
    ends.push(() => own.forEach((s) => s.unsubscribe()));
    const childrenOf = source.children;
    if (!childrenOf) continue;
    const followed = new Map<AnyActorRef, Subscription[]>();
    const follow = () => {
      const now = new Set(childrenOf(ref.getSnapshot()));
      for (const [child, subs] of followed) {
        if (now.has(child)) continue;
        subs.forEach((s) => s.unsubscribe());
        followed.delete(child);
      }
      // A child's dialog is closed by the user only; it has nothing to be told back.
      for (const child of now) {
        if (!followed.has(child)) followed.set(child, listen(child, { systemId: source.systemId }));
      }
    };
    follow();
    const sub = ref.subscribe(follow);
    ends.push(() => {
      sub.unsubscribe();
      followed.forEach((subs) => subs.forEach((s) => s.unsubscribe()));
    });
  }
  return () => ends.forEach((end) => end());
}
