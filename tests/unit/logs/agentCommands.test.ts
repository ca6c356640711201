/**
 * The logs handlers through the dispatcher: log-info, log (progress batches, reply), endLogProcess, and the
 * coded refusals (invalid payloads, "No log file found", busy).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { handlers } from '../../../src/agent/commands';
import type { CommandContext } from '../../../src/agent/commands';
import { dispatchRequest } from '../../../src/agent/link/dispatcher';
import { silentLogger } from '../../../src/agent/log';
import { createDeviceLogs } from '../../../src/agent/logs';
import type { DeviceLogs } from '../../../src/agent/logs';
import type { AgentPartDeps } from '../../../src/agent/parts';
import type { ProgressMessage, ReplyMessage } from '../../../src/protocol';
import { LOG_DEFAULT_COUNT, LOG_TEXTS, LogBatch } from '../../../src/protocol/logs';

let logs: DeviceLogs;
afterEach(async () => {
  await logs.close();
});

function context(): CommandContext {
  logs = createDeviceLogs({
    mode: 'sim',
    backend: { cameras: [] },
    deviceId: 'dev-1',
    label: 'Dev',
    stateDir: '/nonexistent',
    log: silentLogger,
    broadcast: () => undefined,
  } as unknown as AgentPartDeps);
  return {
    deviceId: 'dev-1',
    browserId: 'browser-1',
    linkId: 'link-1',
    logs,
  } as Partial<CommandContext> as CommandContext;
}

let n = 0;
async function call(
  ctx: CommandContext,
  process: string,
  payload: unknown,
  onProgress?: (m: ProgressMessage) => void,
) {
  return dispatchRequest(
    { type: 'request', process, requestId: `r${++n}`, payload },
    handlers,
    ctx,
    silentLogger,
    (m) => onProgress?.(m),
  );
}
const data = (r: ReplyMessage) => (r.ok ? r.data : r.error);

describe('logs commands', () => {
  it('log-info lists the topics', async () => {
    const r = await call(context(), 'log-info', {});
    expect(r.ok).toBe(true);
    expect((data(r) as { topics: { topic: string }[] }).topics.map((t) => t.topic)).toContain('client');
  });

  it('log without count sends the §9 default of 10 lines as sequenced progress batches', async () => {
    const batches: LogBatch[] = [];
    const r = await call(context(), 'log', { uuid: 'a', topic: 'client', subtopic: 'agent' }, (m) =>
      batches.push(LogBatch.parse(m.data)),
    );
    expect(data(r)).toEqual({ uuid: 'a', lines: LOG_DEFAULT_COUNT, reason: 'done' });
    expect(batches.flatMap((b) => b.lines)).toHaveLength(LOG_DEFAULT_COUNT);
    expect(batches[0]!.seq).toBe(0);
  });

  it('a followed log answers stopped after endLogProcess; a second end finds nothing', async () => {
    const ctx = context();
    let got = 0;
    const pending = call(
      ctx,
      'log',
      { uuid: 'f', topic: 'client', subtopic: 'agent', count: 2, follow: true, sim_rate: 200 },
      (m) => {
        got += LogBatch.parse(m.data).lines.length;
      },
    );
    while (got < 20) await new Promise((r) => setTimeout(r, 10));
    expect(data(await call(ctx, 'endLogProcess', { uuid: 'f' }))).toEqual({ ended: true });
    const reply = await pending;
    expect(data(reply)).toMatchObject({ uuid: 'f', reason: 'stopped', lines: got });
    expect(data(await call(ctx, 'endLogProcess', { uuid: 'f' }))).toEqual({ ended: false });
  });

  it("the link closing (the request signal aborted) stops the link's follows", async () => {
    const ctx = context();
    const abort = new AbortController();
    const reply = handlers.log(
      { uuid: 'z', topic: 'client', subtopic: 'agent', count: 0, follow: true },
      ctx,
      { progress: () => undefined, signal: abort.signal },
    );
    while (logs.running === 0) await new Promise((r) => setTimeout(r, 5));
    abort.abort();
    expect(await reply).toEqual({ uuid: 'z', lines: 0, reason: 'link_closed' });
    expect(logs.running).toBe(0);
  });

  it('refuses with codes: unknown subtopic (No log file found), bad names, bad count', async () => {
    const ctx = context();
    const missing = await call(ctx, 'log', { uuid: 'x', topic: 'client', subtopic: 'nope' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect((data(missing) as { message: string }).message).toContain(LOG_TEXTS.noLogFile);
    for (const payload of [
      { uuid: 'x', topic: 'system', subtopic: '../../etc/passwd' },
      { uuid: 'x', topic: '/etc', subtopic: 'passwd' },
      { uuid: 'x y', topic: 'client', subtopic: 'agent' },
      { uuid: 'x', topic: 'client', subtopic: 'agent', count: -1 },
      { uuid: 'x', topic: 'client', subtopic: 'agent', count: 1e9 },
      { uuid: 'x', topic: 'client', subtopic: 'agent', sim_rate: 0 },
    ]) {
      expect(await call(ctx, 'log', payload)).toMatchObject({
        ok: false,
        error: { code: 'invalid_payload' },
      });
    }
    expect(await call(ctx, 'endLogProcess', {})).toMatchObject({
      ok: false,
      error: { code: 'invalid_payload' },
    });
  });
});
