/**
 * The fuzz harness's generator (tests/fuzz: schema baselines and mutations) aimed at the storage commands
 * only, on a sim device through the dispatcher: every reply is ok or a coded refusal (never internal_error),
 * a payload the schema refuses answers invalid_payload, and nothing outside the product data is deleted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { handlers } from '../../../src/agent/commands';
import type { CommandContext } from '../../../src/agent/commands';
import { createSimEngine } from '../../../src/agent/containers/sim';
import { dispatchRequest } from '../../../src/agent/link/dispatcher';
import { silentLogger } from '../../../src/agent/log';
import type { AgentPartDeps } from '../../../src/agent/parts';
import { createDeviceStorage } from '../../../src/agent/storage';
import { storageCommands } from '../../../src/protocol/storage';
import { baseline, jsonSchemaOf } from '../../fuzz/generate';
import { mutate } from '../../fuzz/mutate';
import { Rng } from '../../fuzz/random';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const CODES = new Set([
  'invalid_payload',
  'not_found',
  'not_directory',
  'busy',
  'canceled',
  'forbidden',
  'engine_unavailable',
]);

describe('storage commands under the fuzz generator (sim device)', () => {
  it('answers every generated payload with data or a coded refusal', async () => {
    const engine = createSimEngine({ deviceId: 'dev-1', deviceName: 'Sim', kind: 'x86', hasGpu: true });
    const storage = createDeviceStorage(
      {
        mode: 'sim',
        backend: { kind: 'x86' },
        deviceId: 'dev-1',
        label: 'Sim',
        stateDir: '/nonexistent',
        log: silentLogger,
        broadcast: () => undefined,
      } as unknown as AgentPartDeps,
      { simStepMs: 0 },
    );
    closers.push(async () => {
      await storage.close();
      await engine.close();
    });
    const ctx = {
      deviceId: 'dev-1',
      containers: engine,
      storage,
    } as Partial<CommandContext> as CommandContext;
    const usedBefore = (await storage.totals()).total.used;
    const productBefore = (await storage.productData()).folders.reduce((s, f) => s + f.bytes, 0);

    const rng = new Rng(20_261_123);
    let n = 0;
    const seen = new Map<string, number>();
    for (const [process, spec] of Object.entries(storageCommands)) {
      const json = jsonSchemaOf(spec.request);
      for (let i = 0; i < 120; i++) {
        let payload = baseline(spec.request, rng, {}, json).value;
        let mustRefuse = false;
        if (i % 4 !== 0) {
          const m = mutate(spec.request, payload, rng, undefined, json);
          if (m) {
            payload = m.value;
            mustRefuse = m.expect === 'invalid';
          }
        }
        // The agent reads an absent or null payload as {} (dispatcher.ts).
        if (payload === undefined || payload === null) mustRefuse = !spec.request.safeParse({}).success;
        const reply = await dispatchRequest(
          { type: 'request', process, requestId: `f${++n}`, payload },
          handlers,
          ctx,
          silentLogger,
          () => undefined,
        );
        const outcome = reply.ok ? 'ok' : reply.error.code;
        seen.set(`${process}:${outcome}`, (seen.get(`${process}:${outcome}`) ?? 0) + 1);
        if (!reply.ok) {
          expect(
            CODES,
            `${process} ${JSON.stringify(payload)?.slice(0, 200)}: ${reply.error.message}`,
          ).toContain(reply.error.code);
          expect(reply.error.message.length).toBeGreaterThan(0);
        }
        if (mustRefuse) expect(outcome, JSON.stringify(payload)?.slice(0, 200)).toBe('invalid_payload');
      }
    }
    // Every command answered data at least once (the baselines are valid).
    for (const process of Object.keys(storageCommands)) {
      if (process !== 'delete-product-data') expect(seen.get(`${process}:ok`) ?? 0).toBeGreaterThan(0);
    }
    // Whatever was deleted came out of the product data only.
    const productAfter = (await storage.productData()).folders.reduce((s, f) => s + f.bytes, 0);
    expect(usedBefore - (await storage.totals()).total.used).toBe(productBefore - productAfter);
  });
});
