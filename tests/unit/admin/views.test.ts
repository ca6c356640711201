/**
 * The admin panel's pure pieces: snapshot → view functions of the screens (src/console/features/admin/
 * selectors.ts), the engine image choice of §7 inference-url (src/server/admin/engineBackends.ts) and the
 * keyset cursors (src/server/admin/cursor.ts).
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { adminListMachine } from '../../../machines/admin/adminList.machine';
import { engineBackendsMachine } from '../../../machines/admin/engineBackends.machine';
import { userActionMachine } from '../../../machines/admin/userAction.machine';
import type { AdminUser } from '../../../src/protocol/admin';
import {
  backendsToView,
  detailsText,
  listToView,
  userActionsOf,
  userActionToView,
} from '../../../src/console/features/admin/selectors';
import { cutPage, decodeCursor, encodeCursor } from '../../../src/server/admin/cursor';
import { compareVersions, resolveEngineImage, versionParts } from '../../../src/server/admin/engineBackends';

const user = (over: Partial<AdminUser> = {}): AdminUser => ({
  id: 'u1',
  email: 'ada@example.com',
  username: 'Ada',
  roles: ['user'],
  email_confirmed: true,
  two_factor: false,
  disabled_at: null,
  created_at: '2026-11-27T20:00:00.000Z',
  ...over,
});

describe('views', () => {
  it('a list before and after a page: rows, totals and which pager buttons work', () => {
    const actor = createActor(adminListMachine, { input: { query: { sort: 'email' } } }).start();
    expect(listToView(actor.getSnapshot())).toMatchObject({
      state: 'idle',
      rows: [],
      canNext: false,
      canPrev: false,
    });
    const snap = adminListMachine.resolveState({
      value: 'ready',
      context: {
        query: { sort: 'email' },
        cursor: 'c1',
        page: { rows: [user()], total: 501, totalCapped: true, next: 'c2', prev: null },
        error: null,
      },
    });
    expect(listToView(snap)).toMatchObject({
      state: 'ready',
      total: 501,
      totalCapped: true,
      canNext: true,
      canPrev: false,
      next: 'c2',
      loading: false,
    });
  });

  it('offers disable or enable (never for oneself), the admin role, and 2FA reset only when enrolled', () => {
    expect(userActionsOf(user(), 'root@example.com')).toEqual(['disable', 'makeAdmin']);
    expect(userActionsOf(user({ disabled_at: 'x', two_factor: true }), null)).toEqual([
      'enable',
      'makeAdmin',
      'resetTwoFactor',
    ]);
    expect(userActionsOf(user({ roles: ['admin', 'user'] }), 'ada@example.com')).toEqual(['removeAdmin']);
  });

  it('the action dialog is open from confirming until applied', () => {
    const actor = createActor(userActionMachine).start();
    expect(userActionToView(actor.getSnapshot()).open).toBe(false);
    actor.send({ type: 'action.ask', action: 'disable', user: { id: 'u1', email: 'ada@example.com' } });
    expect(userActionToView(actor.getSnapshot())).toEqual({
      open: true,
      action: 'disable',
      email: 'ada@example.com',
      busy: false,
      error: null,
    });
  });

  it('the back-ends form can be saved only with a version and an image', () => {
    const snap = engineBackendsMachine.resolveState({
      value: 'editing',
      context: {
        backends: [],
        editingId: null,
        draft: { platform: 'driver', version: '535', image: '', note: '' },
        target: null,
        error: null,
      },
    });
    expect(backendsToView(snap)).toMatchObject({ editing: true, isNew: true, canSave: false, target: null });
  });

  it('audit details as short text', () => {
    expect(detailsText({ email: 'a@b.c', from: ['user'], to: ['admin', 'user'] })).toBe(
      'email: a@b.c; from: ["user"]; to: ["admin","user"]',
    );
  });
});

describe('§7 inference-url image choice', () => {
  const rows = [
    { platform: 'jetpack', version: '5', image: 'jp5' },
    { platform: 'jetpack', version: '5.1', image: 'jp51' },
    { platform: 'driver', version: '525', image: 'd525' },
    { platform: 'driver', version: '535.100', image: 'd535' },
  ];
  it('JetPack: the longest prefix at a dot boundary', () => {
    expect(resolveEngineImage(rows, '5.1.2', null)).toBe('jp51');
    expect(resolveEngineImage(rows, '5.0.2', null)).toBe('jp5');
    expect(resolveEngineImage(rows, '51', null)).toBe(false);
    expect(resolveEngineImage(rows, '6.0', null)).toBe(false);
    expect(resolveEngineImage(rows, 'r35.4', null)).toBe(false);
  });
  it('driver: the highest version not above it, number by number', () => {
    expect(resolveEngineImage(rows, null, '535.99')).toBe('d525');
    expect(resolveEngineImage(rows, null, '535.100')).toBe('d535');
    expect(resolveEngineImage(rows, null, '1000')).toBe('d535');
    expect(resolveEngineImage(rows, null, '470.1')).toBe(false);
    expect(versionParts(' 5.1 ')).toEqual([5, 1]);
    expect(compareVersions([535], [535, 0])).toBe(0);
  });
});

describe('keyset cursors', () => {
  it('round-trip, refuse foreign text, and cut pages both ways', () => {
    const c = encodeCursor({
      side: 'after',
      key: 'ada@example.com',
      id: '2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11',
    });
    expect(decodeCursor(c)).toMatchObject({ kind: 'at', side: 'after', key: 'ada@example.com' });
    expect(decodeCursor(undefined)).toEqual({ kind: 'first' });
    expect(decodeCursor('last')).toEqual({ kind: 'last' });
    expect(() => decodeCursor('%%%')).toThrow(/cursor/);
    const id = '2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11';
    const pos = (r: string) => ({ key: r, id });
    // First page of 2 with a third row read: next, no prev.
    const first = cutPage({ kind: 'first' }, ['a', 'b', 'c'], 2, pos);
    expect(first.rows).toEqual(['a', 'b']);
    expect(first.prev).toBeNull();
    expect(decodeCursor(first.next!)).toMatchObject({ side: 'after', key: 'b' });
    // Last page read backwards: turned around, prev, no next.
    const last = cutPage({ kind: 'last' }, ['z', 'y', 'x'], 2, pos);
    expect(last.rows).toEqual(['y', 'z']);
    expect(last.next).toBeNull();
    expect(decodeCursor(last.prev!)).toMatchObject({ side: 'before', key: 'y' });
  });
});
