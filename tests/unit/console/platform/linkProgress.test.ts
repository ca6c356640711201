import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Handlers } from '../../../../src/agent/commands/registry';
import { dispatchRequest } from '../../../../src/agent/link/dispatcher';
import { silentLogger } from '../../../../src/agent/log';
import { DeviceLinkClient } from '../../../../src/console/platform/deviceRpc';
import type { DataConnectionLike } from '../../../../src/console/platform/linkShared';

/**
 * Link `progress` messages (src/protocol/link.ts): a handler reports progress through its CallScope; the
 * console's DeviceLinkClient hands it to the call's onProgress, and each progress restarts the call's time-out.
 */
function fakeConnection() {
  const listeners: Record<string, Array<(arg?: unknown) => void>> = {};
  const sent: Array<Record<string, unknown>> = [];
  const conn = {
    peer: 'dev-1',
    open: true,
    send: (m: Record<string, unknown>) => void sent.push(m),
    close: () => listeners.close?.forEach((l) => l()),
    on: (event: string, listener: (arg?: never) => void) => {
      (listeners[event] ??= []).push(listener as (arg?: unknown) => void);
    },
  } as unknown as DataConnectionLike;
  return { conn, sent, deliver: (msg: unknown) => listeners.data?.forEach((l) => l(msg)) };
}

async function openLink() {
  const f = fakeConnection();
  const link = new DeviceLinkClient(f.conn, 'dev-1');
  const opened = link.open('grant', 5_000);
  f.deliver({ type: 'hello.ok', device_id: 'dev-1' });
  await opened;
  return { link, ...f };
}

describe('dispatchRequest progress', () => {
  it('sends the handler’s progress with the request’s id, and none after the reply', async () => {
    let late: ((d: unknown) => void) | undefined;
    const handlers = {
      ping: async (_p: unknown, _c: unknown, scope: { progress(d: unknown): void }) => {
        scope.progress({ step: 1 });
        scope.progress({ step: 2 });
        late = scope.progress;
        return { pong: true, time: 1 };
      },
    } as unknown as Handlers<object>;
    const progress: unknown[] = [];
    const reply = await dispatchRequest(
      { type: 'request', process: 'ping', requestId: 'r9', payload: {} },
      handlers,
      {},
      silentLogger,
      (m) => progress.push(m),
    );
    late?.({ step: 3 });
    expect(reply).toMatchObject({ ok: true, requestId: 'r9' });
    expect(progress).toEqual([
      { type: 'progress', process: 'ping', requestId: 'r9', data: { step: 1 } },
      { type: 'progress', process: 'ping', requestId: 'r9', data: { step: 2 } },
    ]);
  });
});

describe('DeviceLinkClient progress', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('hands progress to onProgress and restarts the time-out on each', async () => {
    const { link, sent, deliver } = await openLink();
    const seen: unknown[] = [];
    const call = link.call('ping', {}, { timeoutMs: 1_000, onProgress: (d) => seen.push(d) });
    const requestId = sent.find((m) => m.type === 'request')?.requestId;
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(900);
      deliver({ type: 'progress', process: 'ping', requestId, data: { i } });
    }
    deliver({ type: 'reply', process: 'ping', requestId, ok: true, data: { pong: true, time: 2 } });
    await expect(call).resolves.toEqual({ pong: true, time: 2 });
    expect(seen).toEqual([0, 1, 2, 3, 4].map((i) => ({ i })));
    link.close();
  });

  it('times out when progress stops', async () => {
    const { link } = await openLink();
    const call = link.call('ping', {}, { timeoutMs: 1_000, onProgress: () => undefined });
    const settled = expect(call).rejects.toMatchObject({ code: 'timeout' });
    vi.advanceTimersByTime(1_001);
    await settled;
    link.close();
  });

  it('rejects with aborted when the signal aborts', async () => {
    const { link } = await openLink();
    const abort = new AbortController();
    const call = link.call('ping', {}, { signal: abort.signal });
    abort.abort();
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
    link.close();
  });
});
