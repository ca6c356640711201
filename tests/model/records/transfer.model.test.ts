/**
 * The transfer machine on model-based paths: progress, done (with the Blob), failure and retry, cancel —
 * and cancel really stops the transfer actor (its cleanup runs).
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, type EventObject, type SnapshotFrom } from 'xstate';
import {
  transferMachine,
  type TransferEvent,
  type TransferInput,
} from '../../../machines/records/transfer.machine';
import { createMachineTestModel, runPaths } from '../harness';

type Snap = SnapshotFrom<typeof transferMachine>;
const input: TransferInput = { deviceId: 'dev-1', direction: 'download', name: 'a.webm' };
const BLOB = new Blob([new Uint8Array([1, 2, 3])], { type: 'video/webm' });

function eventsFor(s: Snap, type: string): Array<EventObject & Record<string, unknown>> | undefined {
  switch (type) {
    case 'transfer.progress':
      return s.context.done === 0 ? [{ type, done: 1, total: 3 }] : [];
    case 'transfer.done':
      return [{ type, blob: BLOB }];
    case 'transfer.failed':
      return [{ type, error: 'Device did not answer' }];
    default:
      return undefined;
  }
}
const key = (s: Snap) =>
  JSON.stringify([s.value, s.context.done, s.context.total, s.context.error, !!s.context.blob]);

describe('record transfer machine (model-based paths)', () => {
  const model = createMachineTestModel(transferMachine, {
    events: eventsFor,
    key,
    input,
    transitionCoverage: true,
  });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches done, failed and cancelled', () => {
    const values = paths.map((p) => p.state.value);
    for (const v of ['done', 'failed', 'cancelled', 'running']) expect(values).toContain(v);
  });

  it('follows every modelled path on the real machine; cancel stops the transfer', async () => {
    let stopped = 0;
    let started = 0;
    const run = fromCallback<TransferEvent, TransferInput>(() => {
      started++;
      return () => {
        stopped++;
      };
    });
    const steps = await runPaths(
      paths,
      (driver) =>
        createActor(transferMachine.provide({ actors: { runTransfer: run } }), {
          input,
          clock: driver.clock,
        }).start(),
      key,
    );
    expect(steps).toBeGreaterThan(0);
    expect(started).toBeGreaterThan(0);
    expect(stopped).toBeGreaterThan(0);
  });
});
