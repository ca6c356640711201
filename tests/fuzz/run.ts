/**
 * `npm run fuzz`: 10,000 REST cases and 10,000 device-command cases (plus floods and hostile signalling)
 * against a real server and agent; prints one JSON object. FUZZ_SEED replays a run; FUZZ_REST,
 * FUZZ_COMMANDS, FUZZ_SIGNALLING, FUZZ_CHURN_SECONDS change the counts. Exits 1 when a failure is not a known defect.
 */
import { runFuzz } from './harness';
import { seedFromEnv } from './random';

const count = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v >= 0 ? v : fallback;
};

const report = await runFuzz({
  seed: seedFromEnv(),
  rest: count('FUZZ_REST', 10_000),
  commands: count('FUZZ_COMMANDS', 10_000),
  floods: [
    { process: 'send-sdp', count: 500 },
    { process: 'getOneFrameFromPhysicalCamera', count: 500 },
    { process: 'ping', count: 500 },
  ],
  signalling: count('FUZZ_SIGNALLING', 5_000),
  signallingFlood: 2_000,
  churnSeconds: count('FUZZ_CHURN_SECONDS', 60),
  log: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
process.exit(report.unexplained_failures > 0 ? 1 : 0);
