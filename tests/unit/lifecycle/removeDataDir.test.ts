/**
 * removeDataDir (src/server/db/embedded.ts): a throw-away data directory goes with the cluster relocated for
 * it under STATE_DIR/clusters (root's layout), and never with anything a `pg` link points at elsewhere.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const stateDir = mkdtempSync(path.join(os.tmpdir(), 'state-dir-test-'));
process.env.EDGE_CONSOLE_STATE_DIR = stateDir;
const { removeDataDir, STATE_DIR } = await import('../../../src/server/db/embedded');
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

describe('removeDataDir', () => {
  it('removes the data directory and its relocated cluster', () => {
    expect(STATE_DIR).toBe(stateDir);
    const cluster = path.join(stateDir, 'clusters', 'abc123');
    mkdirSync(path.join(cluster, 'pg'), { recursive: true });
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'data-dir-test-'));
    symlinkSync(path.join(cluster, 'pg'), path.join(dataDir, 'pg'));
    removeDataDir(dataDir);
    expect(existsSync(dataDir)).toBe(false);
    expect(existsSync(cluster)).toBe(false);
    expect(existsSync(path.join(stateDir, 'clusters'))).toBe(true);
  });

  it('leaves a link target outside the clusters alone, and a missing directory is no error', () => {
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'not-a-cluster-'));
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'data-dir-test-'));
    symlinkSync(elsewhere, path.join(dataDir, 'pg'));
    removeDataDir(dataDir);
    expect(existsSync(dataDir)).toBe(false);
    expect(existsSync(elsewhere)).toBe(true);
    rmSync(elsewhere, { recursive: true });
    expect(() => removeDataDir(dataDir)).not.toThrow();
  });
});
