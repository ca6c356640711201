/**
 * The licence lists on model-based paths: the user's licences (load, fail, refresh, reset on sign-out), the
 * pricing page's plans (load, fail, retry) and the admin licences (search, page, grant sent / refused and
 * edited again / cancelled, revoke asked / cancelled / confirmed / refused; only a running licence can be asked
 * to be revoked).
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import { adminLicencesMachine } from '../../../machines/billing/adminLicences.machine';
import { myLicencesMachine } from '../../../machines/billing/myLicences.machine';
import { pricingMachine } from '../../../machines/billing/pricing.machine';
import { createMachineTestModel, runPaths, type Driver } from '../harness';
import { adminLicence, licence, plans } from './fixtures';

const ev = (e: object) => e as unknown as EventObject;
const fail = (type: string) => [ev({ type, error: new Error('Servers are unavailable.') })];

describe('myLicences machine (model-based paths)', () => {
  type Snap = SnapshotFrom<typeof myLicencesMachine>;
  it('loads, fails, refreshes and forgets on sign-out', async () => {
    const events = (_s: Snap, type: string) =>
      type === 'xstate.done.actor.loadLicences'
        ? [ev({ type, output: { licences: [licence], lapsed: [{ ...licence, state: 'expired' }] } })]
        : type === 'xstate.error.actor.loadLicences'
          ? fail(type)
          : undefined;
    const key = (s: Snap) =>
      JSON.stringify([s.value, s.context.licences.length, s.context.lapsed.length, s.context.error]);
    const paths = createMachineTestModel(myLicencesMachine, { events, key }).getShortestPaths({
      allowDuplicatePaths: true,
    });
    const start = (d: Driver) =>
      createActor(myLicencesMachine.provide({ actors: { loadLicences: d.promise('loadLicences') } })).start();
    expect(await runPaths(paths, start, key)).toBeGreaterThan(0);
    for (const st of ['idle', 'loading', 'ready', 'failed'])
      expect(paths.some((p) => p.state.matches(st as never))).toBe(true);
    expect(paths.some((p) => p.state.matches('ready') && p.state.context.lapsed.length === 1)).toBe(true);
  });
});

describe('pricing machine (model-based paths)', () => {
  type Snap = SnapshotFrom<typeof pricingMachine>;
  it('loads the plans, fails and retries', async () => {
    const answer = { plans, provider: { id: 'test', test: true }, test_cards: [] };
    const events = (_s: Snap, type: string) =>
      type === 'xstate.done.actor.loadPlans'
        ? [ev({ type, output: answer })]
        : type === 'xstate.error.actor.loadPlans'
          ? fail(type)
          : undefined;
    const key = (s: Snap) =>
      JSON.stringify([s.value, s.context.plans?.plans.length ?? null, s.context.error]);
    const paths = createMachineTestModel(pricingMachine, { events, key }).getShortestPaths({
      allowDuplicatePaths: true,
    });
    const start = (d: Driver) =>
      createActor(pricingMachine.provide({ actors: { loadPlans: d.promise('loadPlans') } })).start();
    await runPaths(paths, start, key);
    for (const st of ['loading', 'ready', 'failed'])
      expect(paths.some((p) => p.state.matches(st as never))).toBe(true);
  });
});

describe('adminLicences machine (model-based paths)', () => {
  type Snap = SnapshotFrom<typeof adminLicencesMachine>;
  const list = { licences: [adminLicence('l1', 'active'), adminLicence('l2', 'revoked')], total: 25 };
  const events = (_s: Snap, type: string): EventObject[] | undefined => {
    switch (type) {
      case 'xstate.done.actor.loadLicences':
        return [ev({ type, output: list })];
      case 'xstate.done.actor.grant':
        return [ev({ type, output: adminLicence('l3', 'active') })];
      case 'xstate.done.actor.revoke':
        return [ev({ type, output: adminLicence('l1', 'revoked') })];
      case 'xstate.error.actor.loadLicences':
      case 'xstate.error.actor.grant':
      case 'xstate.error.actor.revoke':
        return fail(type);
      case 'list.search':
        return [ev({ type, search: 'ada' })];
      case 'list.page':
        return [ev({ type, page: 2 }), ev({ type, page: 9 })];
      case 'grant.submit':
        return [ev({ type, body: { email: 'ada@x.io', plan_id: 'priority-support' } })];
      case 'revoke.ask':
        return [ev({ type, id: 'l1' }), ev({ type, id: 'l2' })];
      default:
        return undefined;
    }
  };
  const key = (s: Snap) =>
    JSON.stringify([
      s.value,
      s.context.search,
      s.context.page,
      s.context.target?.id ?? null,
      s.context.error,
      s.context.done,
    ]);

  it('searches, pages, grants and revokes', async () => {
    const paths = createMachineTestModel(adminLicencesMachine, { events, key }).getShortestPaths({
      allowDuplicatePaths: true,
    });
    const start = (d: Driver) =>
      createActor(
        adminLicencesMachine.provide({
          actors: {
            loadLicences: d.promise('loadLicences'),
            grant: d.promise('grant'),
            revoke: d.promise('revoke'),
          },
        }),
      ).start();
    await runPaths(paths, start, key);
    const ends = paths.map((p) => p.state);
    for (const st of [
      'loading',
      'failed',
      'ready',
      'confirmingRevoke',
      'revoking',
      { granting: 'editing' },
      { granting: 'sending' },
    ])
      expect(ends.some((s) => s.matches(st as never))).toBe(true);
    expect(ends.some((s) => s.matches({ granting: 'editing' }) && s.context.error !== null)).toBe(true);
    for (const p of paths)
      for (const step of p.steps) {
        if (step.state.matches('confirmingRevoke')) expect(step.state.context.target?.id).toBe('l1'); // never the revoked l2
        expect(step.state.context.page).toBeLessThanOrEqual(2); // 25 licences: 2 pages of 20
      }
  });
});
