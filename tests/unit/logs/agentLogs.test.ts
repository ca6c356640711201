/**
 * The agent's logs part: the host catalogue on real temp files (tail, follow, partial lines, truncation,
 * rotation, deletion, no escape from a root), the sim catalogue (topics, history, rate), and the runner
 * (sequenced batches under the size limit, end, stopLink, busy).
 */
import {
  appendFile,
  mkdir,
  mkdtemp,
  rename,
  rm,
  symlink,
  truncate,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeviceLogs } from '../../../src/agent/logs';
import { LogSourceError, createDeviceLogs, toBatches } from '../../../src/agent/logs';
import { createHostCatalogue } from '../../../src/agent/logs/host';
import { createSimCatalogue } from '../../../src/agent/logs/sim';
import { silentLogger } from '../../../src/agent/log';
import type { AgentPartDeps } from '../../../src/agent/parts';
import type { LogBatch } from '../../../src/protocol/logs';
import { LOG_BATCH_MAX_BYTES, LOG_TEXTS } from '../../../src/protocol/logs';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'logs-test-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const deps = (mode: 'host' | 'sim'): AgentPartDeps =>
  ({
    mode,
    backend: { cameras: [{ cameraId: 'cam-2' }, { cameraId: 'cam-1' }] },
    deviceId: 'dev-1',
    label: 'Dev 1',
    stateDir: dir,
    log: silentLogger,
    broadcast: () => undefined,
  }) as unknown as AgentPartDeps;

/** Waits until `check` holds, polling (no timing assertion: the test's own time-out bounds it). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
}

/** Collects a run's batches and checks their sequence numbers have no gap. */
function collector() {
  const batches: LogBatch[] = [];
  const lines: string[] = [];
  return {
    batches,
    lines,
    send: (b: LogBatch) => {
      expect(b.seq).toBe(lines.length);
      batches.push(b);
      lines.push(...b.lines);
    },
  };
}

describe('host catalogue', () => {
  it('lists readable text files two levels deep, without compressed, numbered, binary or linked files', async () => {
    await writeFile(join(dir, 'syslog'), 'a\n');
    await writeFile(join(dir, 'syslog.1'), 'old\n');
    await writeFile(join(dir, 'syslog.2.gz'), 'x');
    await writeFile(join(dir, 'wtmp'), Buffer.from([0, 1, 2]));
    await writeFile(join(dir, 'data.bin'), Buffer.from([65, 0, 66]));
    await mkdir(join(dir, 'apt'));
    await writeFile(join(dir, 'apt', 'history.log'), 'h\n');
    await symlink('/etc/passwd', join(dir, 'passwd'));
    const cat = createHostCatalogue([{ topic: 'system', dir }]);
    expect(await cat.topics()).toEqual([{ topic: 'system', subtopics: ['apt/history.log', 'syslog'] }]);
  });

  it('refuses what is not listed with "No log file found" (missing file, link, path outside the root)', async () => {
    await symlink('/etc/passwd', join(dir, 'passwd'));
    const cat = createHostCatalogue([{ topic: 'system', dir }]);
    for (const [topic, sub] of [
      ['system', 'missing.log'],
      ['system', 'passwd'],
      ['system', '../../etc/passwd'],
      ['nope', 'syslog'],
    ] as const) {
      const err = await cat.open(topic, sub, {}).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LogSourceError);
      expect((err as LogSourceError).code).toBe('not_found');
      expect((err as LogSourceError).message).toContain(LOG_TEXTS.noLogFile);
    }
  });

  it('tails the last lines, then follows appended lines without loss, a partial line once it ends', async () => {
    const file = join(dir, 'app.log');
    await writeFile(file, Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n') + '\npart');
    const cat = createHostCatalogue([{ topic: 'system', dir }]);
    const src = await cat.open('system', 'app.log', {});
    expect(await src.tail(3)).toEqual(['line 47', 'line 48', 'line 49']);
    const got: string[] = [];
    const stop = src.follow(
      (l) => got.push(...l),
      () => undefined,
    );
    await appendFile(file, 'ial\nnew 1\r\n');
    for (let i = 2; i <= 500; i++) await appendFile(file, `new ${i}\n`);
    await until(() => got.length >= 501);
    expect(got[0]).toBe('partial');
    expect(got.slice(1)).toEqual(Array.from({ length: 500 }, (_, i) => `new ${i + 1}`));
    stop();
    await src.close();
  });

  it('tail of a whole short file, and of 0 lines', async () => {
    await writeFile(join(dir, 'a.log'), 'one\ntwo\n');
    const cat = createHostCatalogue([{ topic: 'system', dir }]);
    expect(await (await cat.open('system', 'a.log', {})).tail(10)).toEqual(['one', 'two']);
    expect(await (await cat.open('system', 'a.log', {})).tail(0)).toEqual([]);
  });

  for (const [what, change] of [
    ['truncated', (f: string) => truncate(f, 0)],
    ['deleted', (f: string) => unlink(f)],
    [
      'rotated',
      async (f: string) => {
        await rename(f, `${f}.1`);
        await writeFile(f, 'fresh\n');
      },
    ],
  ] as const) {
    it(`ends a follow with "Log file modified or deleted" when the file is ${what}`, async () => {
      const file = join(dir, 'app.log');
      await writeFile(file, 'a\n');
      const cat = createHostCatalogue([{ topic: 'system', dir }]);
      const src = await cat.open('system', 'app.log', {});
      await src.tail(10);
      const got: string[] = [];
      let error: LogSourceError | undefined;
      src.follow(
        (l) => got.push(...l),
        (e) => (error = e),
      );
      await appendFile(file, 'b\n');
      await until(() => got.length === 1);
      await change(file);
      await until(() => error !== undefined);
      expect(error!.code).toBe('log_changed');
      expect(error!.message).toContain(LOG_TEXTS.logChanged);
      expect(got).toEqual(['b']);
      await src.close();
    });
  }
});

describe('sim catalogue', () => {
  it('has four topics, the cameras as stream-engine subtopics, and a repeatable history', async () => {
    const cat = createSimCatalogue(['cam-2', 'cam-1']);
    const topics = await cat.topics();
    expect(topics.map((t) => t.topic)).toEqual(['client', 'stream-engine', 'inference', 'system']);
    expect(topics[1]!.subtopics).toEqual(['cam-1', 'cam-2']);
    const a = await (await cat.open('client', 'agent', {})).tail(10);
    expect(a).toHaveLength(10);
    expect(a[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z (INFO|DEBUG|WARN|ERROR) client\[agent\]: /);
    const b = await (await cat.open('client', 'agent', {})).tail(10);
    expect(b.map((l) => l.slice(25))).toEqual(a.map((l) => l.slice(25)));
    await expect(cat.open('client', 'nope', {})).rejects.toMatchObject({ code: 'not_found' });
  });

  it('follows at the asked rate', async () => {
    const src = await createSimCatalogue([]).open('inference', 'engine', { simRate: 1000 });
    const got: string[] = [];
    const stop = src.follow(
      (l) => got.push(...l),
      () => undefined,
    );
    await until(() => got.length >= 200);
    stop();
    expect(got[0]).toContain('inference[engine]');
  });
});

describe('batches', () => {
  it('splits lines into batches under the size limit with consecutive sequence numbers', () => {
    const lines = Array.from({ length: 300 }, (_, i) => `${i} ${'x'.repeat(200)}`);
    const batches = toBatches('u', 5, lines);
    expect(batches.length).toBeGreaterThan(1);
    let seq = 5;
    for (const b of batches) {
      expect(b.seq).toBe(seq);
      expect(Buffer.byteLength(JSON.stringify(b))).toBeLessThan(LOG_BATCH_MAX_BYTES);
      seq += b.lines.length;
    }
    expect(seq).toBe(305);
  });
});

describe('the logs part', () => {
  let logs: DeviceLogs;
  afterEach(async () => {
    await logs.close();
  });

  it('a run without follow sends the count and answers done', async () => {
    logs = createDeviceLogs(deps('sim'));
    const c = collector();
    const r = await logs.run(
      { uuid: 'u1', topic: 'system', subtopic: 'syslog', count: 10, follow: false },
      { browserId: 'b', linkId: 'l' },
      c.send,
    );
    expect(r).toEqual({ lines: 10, reason: 'done' });
    expect(c.lines).toHaveLength(10);
  });

  it('a followed run streams until endLogProcess; the same uuid twice is busy; a stranger cannot end it', async () => {
    logs = createDeviceLogs(deps('sim'));
    const c = collector();
    const run = logs.run(
      { uuid: 'u1', topic: 'client', subtopic: 'agent', count: 10, follow: true, simRate: 500 },
      { browserId: 'b', linkId: 'l' },
      c.send,
    );
    await expect(
      logs.run(
        { uuid: 'u1', topic: 'client', subtopic: 'agent', count: 1, follow: true },
        { browserId: 'b', linkId: 'l' },
        () => undefined,
      ),
    ).rejects.toMatchObject({ code: 'busy' });
    await until(() => c.lines.length > 100);
    expect(logs.end('u1', 'someone-else')).toBe(false);
    expect(logs.end('u1', 'b')).toBe(true);
    const r = await run;
    expect(r.reason).toBe('stopped');
    expect(r.lines).toBe(c.lines.length);
    expect(logs.running).toBe(0);
  });

  it('stops every follow of a closed link', async () => {
    logs = createDeviceLogs(deps('sim'));
    const runs = ['a', 'b'].map((uuid) =>
      logs.run(
        { uuid, topic: 'inference', subtopic: 'models', count: 0, follow: true },
        { browserId: 'b', linkId: 'l1' },
        () => undefined,
      ),
    );
    const other = logs.run(
      { uuid: 'c', topic: 'inference', subtopic: 'models', count: 0, follow: true },
      { browserId: 'b2', linkId: 'l2' },
      () => undefined,
    );
    await until(() => logs.running === 3);
    logs.stopLink('l1');
    expect(await Promise.all(runs)).toEqual([
      { lines: 0, reason: 'link_closed' },
      { lines: 0, reason: 'link_closed' },
    ]);
    expect(logs.running).toBe(1);
    await logs.close();
    expect((await other).reason).toBe('stopped');
  });

  it('long-polls a follow: `more` after pollMs, the same uuid goes on without loss, a stray second call is busy', async () => {
    logs = createDeviceLogs(deps('sim'), { pollMs: 100, resumeMs: 10_000 });
    const c = collector();
    const ask = () =>
      logs.run(
        { uuid: 'p', topic: 'client', subtopic: 'agent', count: 5, follow: true, simRate: 1000 },
        { browserId: 'b', linkId: 'l' },
        c.send,
      );
    const first = ask();
    await expect(ask()).rejects.toMatchObject({ code: 'busy' });
    expect(await first).toEqual({ lines: c.lines.length, reason: 'more' });
    const firstLines = c.lines.length;
    // Lines written between two calls wait on the device and come with the next call.
    await new Promise((r) => setTimeout(r, 50));
    const second = ask();
    await until(() => c.lines.length > firstLines + 50);
    expect(logs.end('p', 'b')).toBe(true);
    expect(await second).toEqual({ lines: c.lines.length, reason: 'stopped' });
    expect(logs.running).toBe(0);
  });

  it('stops a followed log nobody asks for again within resumeMs', async () => {
    logs = createDeviceLogs(deps('sim'), { pollMs: 20, resumeMs: 50 });
    const r = await logs.run(
      { uuid: 'q', topic: 'client', subtopic: 'agent', count: 0, follow: true },
      { browserId: 'b', linkId: 'l' },
      () => undefined,
    );
    expect(r.reason).toBe('more');
    expect(logs.running).toBe(1);
    await until(() => logs.running === 0);
    expect(logs.end('q', 'b')).toBe(false);
  });

  it('drops the oldest lines beyond the queue between calls; the sequence numbers show the gap', async () => {
    logs = createDeviceLogs(deps('sim'), { pollMs: 20, resumeMs: 10_000, queueMax: 10 });
    const batches: LogBatch[] = [];
    const ask = () =>
      logs.run(
        { uuid: 'g', topic: 'client', subtopic: 'agent', count: 0, follow: true, simRate: 2000 },
        { browserId: 'b', linkId: 'l' },
        (b) => batches.push(b),
      );
    const first = await ask();
    await new Promise((r) => setTimeout(r, 100));
    const second = ask();
    await until(() => batches.length > 0 && batches.at(-1)!.seq > first.lines);
    logs.end('g', 'b');
    await second;
    const afterFirst = batches.find((b) => b.seq >= first.lines)!;
    expect(afterFirst.seq).toBeGreaterThan(first.lines);
    expect(afterFirst.lines.length).toBeLessThanOrEqual(10);
  });

  it('host: a file deleted between two calls fails the next call with log_changed', async () => {
    const root = join(dir, 'var');
    await mkdir(root);
    const file = join(root, 'app.log');
    await writeFile(file, 'a\n');
    logs = createDeviceLogs(deps('host'), { roots: [{ topic: 'system', dir: root }], pollMs: 50 });
    const c = collector();
    const ask = () =>
      logs.run(
        { uuid: 'd', topic: 'system', subtopic: 'app.log', count: 10, follow: true },
        { browserId: 'b', linkId: 'l' },
        c.send,
      );
    expect((await ask()).reason).toBe('more');
    await appendFile(file, 'b\n');
    await unlink(file);
    await new Promise((r) => setTimeout(r, 600));
    await expect(ask()).rejects.toMatchObject({ code: 'log_changed' });
    expect(c.lines).toEqual(['a', 'b']);
    expect(logs.running).toBe(0);
  });

  it('host: follows a real file and ends with log_changed when it is deleted', async () => {
    const root = join(dir, 'var');
    await mkdir(root);
    const file = join(root, 'app.log');
    await writeFile(file, 'a\nb\n');
    logs = createDeviceLogs(deps('host'), { roots: [{ topic: 'system', dir: root }] });
    expect(await logs.topics()).toEqual([{ topic: 'system', subtopics: ['app.log'] }]);
    const c = collector();
    const run = logs.run(
      { uuid: 'u', topic: 'system', subtopic: 'app.log', count: 10, follow: true },
      { browserId: 'b', linkId: 'l' },
      c.send,
    );
    await until(() => c.lines.length === 2);
    await appendFile(file, 'c\n');
    await until(() => c.lines.length === 3);
    await unlink(file);
    await expect(run).rejects.toMatchObject({ code: 'log_changed' });
    expect(c.lines).toEqual(['a', 'b', 'c']);
    expect(logs.running).toBe(0);
  });

  it('host default topics: system (/var/log) and agent (<stateDir>/logs)', async () => {
    await mkdir(join(dir, 'logs'));
    await writeFile(join(dir, 'logs', 'agent.log'), 'started\n');
    logs = createDeviceLogs(deps('host'));
    const topics = await logs.topics();
    expect(topics.map((t) => t.topic)).toEqual(['system', 'agent']);
    expect(topics[1]!.subtopics).toEqual(['agent.log']);
  });
});
