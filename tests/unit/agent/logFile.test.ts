import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../src/agent/log';

describe('the agent log file (<stateDir>/logs/agent.log)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'agent-log-'));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes every line to stderr and to the file, creating its folder private', async () => {
    const file = path.join(dir, 'logs', 'agent.log');
    const log = createLogger('Box', { file });
    log.info('started', { port: 1 });
    log.warn('slow');
    log.error('failed');
    await log.close!();
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT.* INFO \[Box\] started \{"port":1\}$/);
    expect(lines[1]).toContain('WARN [Box] slow');
    expect(lines[2]).toContain('ERROR [Box] failed');
    expect(process.stderr.write).toHaveBeenCalledTimes(3);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('rotates to agent.log.1 once the file would pass maxBytes, keeping every line in one of the two', async () => {
    const file = path.join(dir, 'agent.log');
    const log = createLogger('Box', { file, maxBytes: 1000 });
    for (let i = 0; i < 30; i++) log.info(`line ${String(i).padStart(3, '0')}`);
    await log.close!();
    const current = readFileSync(file, 'utf8');
    const previous = readFileSync(`${file}.1`, 'utf8');
    expect(Buffer.byteLength(current)).toBeLessThanOrEqual(1000);
    expect(Buffer.byteLength(previous)).toBeLessThanOrEqual(1000);
    // The newest lines are in the current file, the ones before in .1, in order, without a gap.
    const numbers = (previous + current)
      .trim()
      .split('\n')
      .map((l) => Number(l.slice(-3)));
    expect(numbers.at(-1)).toBe(29);
    for (let k = 1; k < numbers.length; k++) expect(numbers[k]).toBe(numbers[k - 1]! + 1);
  });

  it('a file that cannot be written is given up: the logger keeps logging to stderr', async () => {
    // A file where the log folder should be (modes would not stop root).
    writeFileSync(path.join(dir, 'not-a-dir'), 'x');
    const file = path.join(dir, 'not-a-dir', 'agent.log');
    const log = createLogger('Box', { file });
    expect(() => log.info('still here')).not.toThrow();
    await log.close!();
    expect(existsSync(file)).toBe(false);
    expect(process.stderr.write).toHaveBeenCalledWith(expect.stringContaining('still here'));
  });
});
