import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import {
  DEVICES_TABLE_ERROR,
  devicesTableMachine,
  type DevicesQuery,
} from '../../../machines/devices/devicesTable.machine';
import type { NoticeEmitted } from '../../../machines/notifications/emitted';
import { QUICK_SEARCH_DEBOUNCE_MS } from '../../../src/protocol/constants';
import { flush, makeDevice } from '../machines/fixtures';

function startTable(fail = false) {
  const clock = new SimulatedClock();
  const queries: DevicesQuery[] = [];
  const machine = devicesTableMachine.provide({
    actors: {
      loadDevices: fromPromise(async ({ input }) => {
        queries.push(input);
        if (fail) throw new Error('Servers are unavailable.');
        return { res: [makeDevice(1)], total_items: 11, active_devices_count: 4 };
      }),
    },
  });
  const table = createActor(machine, { clock });
  const notices: NoticeEmitted[] = [];
  table.on('notice', (n) => notices.push(n));
  table.start();
  return { table, clock, queries, notices };
}

describe('devicesTable', () => {
  it('loads page 1, 5 per page, ordered by label ascending by default (§9)', async () => {
    const { table, queries } = startTable();
    table.send({ type: 'table.refresh' });
    await flush();
    expect(queries).toEqual([{ page: 1, per_page: 5, order_by: 'label', order_as: 'asc' }]);
    const snap = table.getSnapshot();
    expect(snap.value).toBe('ready');
    expect(snap.context.totalItems).toBe(11);
    expect(snap.context.activeDevicesCount).toBe(4);
  });

  it('queries the server again for another page, page size or sort', async () => {
    const { table, queries } = startTable();
    table.send({ type: 'table.refresh' });
    await flush();
    table.send({ type: 'table.page', page: 3 });
    await flush();
    table.send({ type: 'table.sort', orderBy: 'created_at', orderAs: 'desc' });
    await flush();
    expect(queries.slice(1)).toEqual([
      { page: 3, per_page: 5, order_by: 'label', order_as: 'asc' },
      { page: 1, per_page: 5, order_by: 'created_at', order_as: 'desc' },
    ]);
  });

  it('does not query for a 1-character search', async () => {
    const { table, clock, queries } = startTable();
    table.send({ type: 'table.refresh' });
    await flush();
    table.send({ type: 'table.search', search: 'a' });
    clock.increment(QUICK_SEARCH_DEBOUNCE_MS * 5);
    await flush();
    expect(queries).toHaveLength(1);
    expect(table.getSnapshot().context.search).toBe('a');
  });

  it('queries once, 200 ms after the last keystroke, for a 2-character search', async () => {
    const { table, clock, queries } = startTable();
    table.send({ type: 'table.refresh' });
    await flush();
    table.send({ type: 'table.search', search: 'a' });
    clock.increment(100);
    table.send({ type: 'table.search', search: 'ab' });
    clock.increment(QUICK_SEARCH_DEBOUNCE_MS - 1);
    await flush();
    expect(queries).toHaveLength(1);
    clock.increment(1);
    await flush();
    expect(queries).toHaveLength(2);
    expect(queries[1]).toMatchObject({ search: 'ab', page: 1 });
  });

  it('shows "Connection error. Please try again later." when the list cannot be loaded', async () => {
    const { table, notices } = startTable(true);
    table.send({ type: 'table.refresh' });
    await flush();
    expect(table.getSnapshot().value).toBe('failed');
    expect(table.getSnapshot().context.error).toBe(DEVICES_TABLE_ERROR);
    expect(notices[0]).toMatchObject({ message: DEVICES_TABLE_ERROR, variant: 'danger' });
  });
});
