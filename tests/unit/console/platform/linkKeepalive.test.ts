import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeviceLinkClient } from '../../../../src/console/platform/deviceRpc';
import type { DataConnectionLike } from '../../../../src/console/platform/linkShared';
import { LINK_KEEPALIVE_INTERVAL_MS, LINK_SILENCE_TIMEOUT_MS } from '../../../../src/protocol/constants';

/** A data connection whose far end the test plays: `deliver` hands the client a message from the agent. */
function fakeConnection() {
  const listeners: Record<string, Array<(arg?: unknown) => void>> = {};
  const on = (event: string, listener: (arg?: never) => void) => {
    (listeners[event] ??= []).push(listener as (arg?: unknown) => void);
  };
  const conn = {
    peer: 'dev-0000000000000001',
    open: true,
    send: () => undefined,
    close: () => listeners.close?.forEach((l) => l()),
    on,
  } as unknown as DataConnectionLike;
  return { conn, deliver: (msg: unknown) => listeners.data?.forEach((l) => l(msg)) };
}

describe('device link keep-alive (§9)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  async function openLink() {
    const { conn, deliver } = fakeConnection();
    const link = new DeviceLinkClient(conn, 'dev-0000000000000001');
    const opened = link.open('grant', 5_000);
    deliver({ type: 'hello.ok', device_id: 'dev-0000000000000001' });
    await opened;
    const closed: string[] = [];
    link.onClose((reason) => closed.push(reason));
    return { link, deliver, closed };
  }

  it('keeps a link open while the agent sends keep-alives', async () => {
    const { link, deliver, closed } = await openLink();
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(LINK_KEEPALIVE_INTERVAL_MS);
      deliver({ type: 'event', name: 'keepalive', data: {} });
    }
    expect(link.isOpen).toBe(true);
    expect(closed).toEqual([]);
  });

  it('fails a link that stays silent longer than the silence time-out', async () => {
    const { link, closed } = await openLink();
    vi.advanceTimersByTime(LINK_SILENCE_TIMEOUT_MS + LINK_KEEPALIVE_INTERVAL_MS);
    expect(link.isOpen).toBe(false);
    expect(closed).toEqual(['The device stopped answering.']);
  });
});
