/**
 * The host's real restart (src/agent/software/host.ts restartInto), run in a child process so the test runner
 * is not the one that stops: an installed release's entry (a harmless script from a real bundle unpacked into a
 * temp state directory) is started detached with the same Node options, arguments and environment, and the old
 * process stops cleanly through its SIGTERM handler.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import { afterAll, expect, it } from 'vitest';
import { installBundle } from '../../../src/agent/software/host';

const dir = mkdtempSync(path.join(os.tmpdir(), 'software-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('starts the new release with the same arguments and environment, and the old process stops cleanly', async () => {
  // A real bundle whose entry records how it was started.
  const src = path.join(dir, 'src');
  const marker = path.join(dir, 'new-agent.json');
  const stopped = path.join(dir, 'old-stopped');
  mkdirSync(src);
  writeFileSync(path.join(src, 'release.json'), JSON.stringify({ version: '3.0.0', entry: 'main.mjs' }));
  writeFileSync(
    path.join(src, 'main.mjs'),
    `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, JSON.stringify({ argv: process.argv.slice(2), env: process.env.RESTART_PROBE, pid: process.pid }));\n`,
  );
  const file = path.join(dir, 'bundle.tar.gz');
  await tar.create({ gzip: true, cwd: src, file, portable: true }, ['release.json', 'main.mjs']);
  const stateDir = path.join(dir, 'state');
  mkdirSync(stateDir);
  await installBundle(stateDir, '3.0.0', file);

  // The "old agent": restarts into the installed entry and stops on SIGTERM.
  const runner = path.join(dir, 'old-agent.ts');
  writeFileSync(
    runner,
    [
      `import { writeFileSync } from 'node:fs';`,
      `import { restartInto } from ${JSON.stringify(path.resolve('src/agent/software/host.ts'))};`,
      `process.on('SIGTERM', () => { writeFileSync(${JSON.stringify(stopped)}, 'clean'); process.exit(0); });`,
      `restartInto(${JSON.stringify(path.join(stateDir, 'current', 'main.mjs'))});`,
      `setTimeout(() => process.exit(3), 10_000);`,
    ].join('\n'),
  );
  const old = spawn(process.execPath, ['--import', 'tsx', runner, '--label', 'Box A', '--backend', 'host'], {
    env: { ...process.env, RESTART_PROBE: 'same-env' },
    stdio: 'ignore',
  });
  const code = await new Promise<number | null>((resolve) => old.on('exit', resolve));
  expect(code).toBe(0);
  expect(readFileSync(stopped, 'utf8')).toBe('clean');
  for (let i = 0; i < 200 && !existsSync(marker); i++) await new Promise((r) => setTimeout(r, 50));
  const started = JSON.parse(readFileSync(marker, 'utf8')) as { argv: string[]; env: string; pid: number };
  expect(started.argv).toEqual(['--label', 'Box A', '--backend', 'host']);
  expect(started.env).toBe('same-env');
  expect(started.pid).not.toBe(old.pid);
}, 30_000);
