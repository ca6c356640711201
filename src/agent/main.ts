/**
 * CLI: starts one device agent (see options.ts for the flags). Prints one JSON line
 * `{"event":"ready","device_id":"…"}` on stdout once registered with signalling; logs go to stderr.
 * Stops cleanly on SIGINT/SIGTERM (peer connections, links, ffmpeg children). Exit codes: 0 after a signal,
 * 1 on a start-up or runtime failure, 2 on bad arguments or a refused device token.
 */
import { errorMessage } from './log';
import { parseCli, USAGE } from './options';
import { startAgent, TokenRefusedError } from './index';
import type { RunningAgent } from './index';

const cli = parseCli(process.argv.slice(2), process.env);
if (!cli.ok) {
  process.stderr.write(`${cli.message}\n${cli.help ? '' : `\n${USAGE}\n`}`);
  process.exit(cli.help ? 0 : 2);
}

// A bug reached by one link must not take the device offline: log it and keep serving the others.
process.on('uncaughtException', (err) => {
  process.stderr.write(
    `${new Date().toISOString()} ERROR [agent] uncaught exception: ${err.stack ?? err.message}\n`,
  );
});
process.on('unhandledRejection', (reason) => {
  process.stderr.write(
    `${new Date().toISOString()} ERROR [agent] unhandled rejection: ${errorMessage(reason)}\n`,
  );
});

let agent: RunningAgent | null = null;
let stopping = false;

const stop = async (code: number) => {
  if (stopping) return;
  stopping = true;
  const force = setTimeout(() => process.exit(code), 5_000);
  force.unref();
  try {
    await agent?.close();
  } finally {
    process.exit(code);
  }
};
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

// Started by `npm start` (src/stack.ts) with AGENT_EXIT_WITH_PARENT=1: when that process dies without
// stopping us (kill -9, a crash), we are re-parented; stop instead of serving a console that is gone.
if (process.env.AGENT_EXIT_WITH_PARENT === '1') {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void stop(0);
  }, 1_000).unref();
}

const fail = (err: unknown) => {
  const refused = err instanceof TokenRefusedError;
  process.stderr.write(`agent: ${refused ? '' : 'fatal: '}${errorMessage(err)}\n`);
  void stop(refused ? 2 : 1);
};

try {
  agent = await startAgent({ ...cli.options, onFatal: fail });
  if (stopping) await agent.close();
  else process.stdout.write(`${JSON.stringify({ event: 'ready', device_id: agent.deviceId })}\n`);
} catch (err) {
  fail(err);
}
