/**
 * The metrics commands through the dispatcher on a sim device: get-metrics-info sends a day as progress
 * chunks (each under the link's message limit) before its reply, change-save-metrics-info sets and keeps the
 * settings; bad ranges, settings out of bounds and hostile payloads answer coded errors.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSimBackend } from '../../../src/agent/backends/sim/backend';
import { handlers } from '../../../src/agent/commands';
import type { CommandContext } from '../../../src/agent/commands';
import { dispatchRequest } from '../../../src/agent/link/dispatcher';
import { MAX_MESSAGE_BYTES } from '../../../src/agent/link/session';
import { silentLogger } from '../../../src/agent/log';
import { createMetricsHistory, type MetricsHistory } from '../../../src/agent/metrics';
import type { ProgressMessage, ReplyMessage } from '../../../src/protocol';
import { deviceCommands } from '../../../src/protocol/commands';
import { MetricsChunk } from '../../../src/protocol/metrics';

const open: { metrics: MetricsHistory; dir: string }[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) {
    await h.metrics.close();
    rmSync(h.dir, { recursive: true, force: true });
  }
});

function harness() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'metrics-cmd-'));
  const metrics = createMetricsHistory(
    {
      mode: 'sim',
      backend: createSimBackend({ deviceId: 'dev-1', kind: 'x86', cameras: 2, label: 'Sim' }),
      deviceId: 'dev-1',
      label: 'Sim',
      stateDir: dir,
      log: silentLogger,
      broadcast: () => undefined,
    },
    { timers: false },
  );
  open.push({ metrics, dir });
  return { metrics } as Partial<CommandContext> as CommandContext;
}

let n = 0;
async function call(ctx: CommandContext, process: string, payload: unknown) {
  const progress: ProgressMessage[] = [];
  const reply = await dispatchRequest(
    { type: 'request', process, requestId: `r${++n}`, payload },
    handlers,
    ctx,
    silentLogger,
    (m) => progress.push(m),
  );
  return { reply, progress };
}
const ok = (reply: ReplyMessage): unknown => {
  if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
  return reply.data;
};
const code = (reply: ReplyMessage) => (reply.ok ? 'ok' : reply.error.code);

describe('metrics commands (sim device)', () => {
  it('answers a day of 1 s samples in chunks under the message limit, then the layout', async () => {
    const ctx = harness();
    const to = Date.now();
    const { reply, progress } = await call(ctx, 'get-metrics-info', {
      from: to - 86_400_000,
      to,
      maxPoints: 1_000,
    });
    const data = deviceCommands['get-metrics-info'].reply.parse(ok(reply));
    expect(data).toMatchObject({ from: to - 86_400_000, to, buckets: 1_000, bucket_ms: 86_400 });
    expect(data.samples).toBeGreaterThanOrEqual(86_399);
    expect(data.chunks).toBe(progress.length);
    expect(data.series.map((s) => s.key)).toEqual([
      'cpu',
      'memory',
      'temperature',
      'gpu0.util',
      'gpu0.memory',
    ]);
    let buckets = 0;
    for (const m of progress) {
      expect(Buffer.byteLength(JSON.stringify(m))).toBeLessThan(MAX_MESSAGE_BYTES);
      const chunk = MetricsChunk.parse(m.data);
      expect(chunk.offset).toBe(buckets);
      buckets += chunk.count;
    }
    expect(buckets).toBe(1_000);
    expect(Buffer.byteLength(JSON.stringify(reply))).toBeLessThan(MAX_MESSAGE_BYTES);
  });

  it('defaults to the last hour', async () => {
    const data = ok((await call(harness(), 'get-metrics-info', {})).reply) as { to: number; from: number };
    expect(data.to - data.from).toBe(3_600_000);
  });

  it('sets the saving settings and reads them back', async () => {
    const ctx = harness();
    const settings = { save: false, interval_s: 30, retention_h: 72 };
    expect(ok((await call(ctx, 'change-save-metrics-info', settings)).reply)).toEqual({ settings });
    const info = ok((await call(ctx, 'get-metrics-info', { maxPoints: 10 })).reply) as { settings: unknown };
    expect(info.settings).toEqual(settings);
  });

  it('refuses bad ranges, settings out of bounds and hostile payloads with coded errors, keeping the settings', async () => {
    const ctx = harness();
    const before = ctx.metrics.settings();
    expect(code((await call(ctx, 'get-metrics-info', { from: 10, to: 10 })).reply)).toBe('bad_range');
    expect(code((await call(ctx, 'get-metrics-info', { maxPoints: 5_000 })).reply)).toBe('invalid_payload');
    expect(code((await call(ctx, 'get-metrics-info', { from: -1 })).reply)).toBe('invalid_payload');
    expect(code((await call(ctx, 'get-metrics-info', { to: 'now' })).reply)).toBe('invalid_payload');
    const tooMany = await call(ctx, 'change-save-metrics-info', {
      save: true,
      interval_s: 1,
      retention_h: 72,
    });
    expect(code(tooMany.reply)).toBe('too_many_samples');
    expect(tooMany.reply.ok ? '' : tooMany.reply.error.message).toMatch(/longer interval/);
    for (const bad of [
      { save: true, interval_s: 0, retention_h: 1 },
      { save: true, interval_s: 1.5, retention_h: 1 },
      { save: 'yes', interval_s: 1, retention_h: 1 },
      { save: true, interval_s: 1, retention_h: 1, extra: 1 },
      null,
    ]) {
      expect(code((await call(ctx, 'change-save-metrics-info', bad)).reply)).toBe('invalid_payload');
    }
    expect(ctx.metrics.settings()).toEqual(before);
  });
});
