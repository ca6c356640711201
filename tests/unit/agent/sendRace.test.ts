/**
 * Browsers closing their links abruptly while the agent sends into them (fuzz issue 15: the agent died
 * while answering links that closed under it). A child process (a native crash in wrtc kills the process it
 * runs in) runs one agent on a loopback with real wrtc peers; browsers each follow a log at the sim's top
 * pace (progress batches of up to 12 KB streaming into the link), ask for stills and pings, and close their
 * peer connection 0–300 ms later. The agent must neither crash (SIGSEGV) nor throw (a followed log's flush
 * used to read the call the link's close had just ended: TypeError), and must answer ping on a new link.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('links closed while the agent sends into them', () => {
  it('leave the agent alive and answering (child process, real wrtc peers)', () => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'sendRaceChild.ts')], {
      cwd: path.join(__dirname, '../../..'),
      env: { ...process.env, RACE_SECONDS: '5', RACE_CLOSE_MS: '300', RACE_PORT: '19734' },
      encoding: 'utf8',
      timeout: 90_000,
    });
    const summary = child.stdout.trim().split('\n').pop();
    console.info(`send race: ${summary}`);
    expect({ signal: child.signal, status: child.status, stderr: child.stderr.slice(-2000) }).toEqual({
      signal: null,
      status: 0,
      stderr: '',
    });
    const result = JSON.parse(summary ?? '{}') as { links: number; replies: number; pingAfter: boolean };
    // It did race: several links, and far more messages (log batches) than requests came back before the closes.
    expect(result.links).toBeGreaterThanOrEqual(8);
    expect(result.replies).toBeGreaterThan(200);
    expect(result.pingAfter).toBe(true);
  }, 120_000);
});
