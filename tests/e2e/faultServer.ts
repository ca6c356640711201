/**
 * A server process of its own for the fault tests (tests/e2e/faults.spec.ts; issue 15 "Server restarted",
 * "Signalling lost"): `npm start` runs server, PostgreSQL and agents in one process, so its server cannot be
 * killed alone. This entry starts only the server (src/server/index.ts, embedded PostgreSQL in DATA_DIR, the
 * built console from dist/) on PORT, seeds FAULT_ACCOUNT with FAULT_DEVICES (idempotent), and on its first start
 * issues the devices' tokens into DATA_DIR/fault-agents.json (a restart keeps them: the agents, run by the test,
 * outlive the server). Prints `{"event":"ready"}` once listening. SIGTERM closes it in order; after SIGKILL the
 * next start finds the orphaned PostgreSQL of the same DATA_DIR and stops it first (src/server/db/embedded.ts).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../src/server/index';
import { FAULT_ACCOUNT, FAULT_DEVICES, type FaultAgentSpec } from './restartableServer';

async function main(): Promise<void> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const dataDir = process.env.DATA_DIR!;
  const server = await startServer({
    port: Number(process.env.PORT),
    host: '127.0.0.1',
    dataDir,
    staticDir: path.join(root, 'dist'),
    demoAccount: null,
    logLevel: process.env.LOG_LEVEL ?? 'error',
    loginRateLimitPerMin: 1000,
  });
  const file = path.join(dataDir, 'fault-agents.json');
  if (!existsSync(file)) {
    const { id: ownerId } = await server.seed.ensureUser({
      ...FAULT_ACCOUNT,
      username: 'Fault Tester',
      roles: ['user'],
    });
    await server.seed.ensureGroups(ownerId);
    const agents: FaultAgentSpec[] = [];
    for (const d of FAULT_DEVICES) {
      const row = await server.seed.ensureDevice({
        ownerId,
        label: d.label,
        chipsetId: '0',
        jetpack: null,
        location: null,
      });
      agents.push({
        label: d.label,
        deviceId: row.device_id,
        token: await server.seed.issueDeviceToken(row.id),
        kind: d.kind,
        cameras: d.cameras,
      });
    }
    writeFileSync(file, JSON.stringify(agents));
  } else {
    JSON.parse(readFileSync(file, 'utf8'));
  }
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // The test runner that started us is gone (crashed, killed): stop too.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop();
  }, 500).unref();
  console.log(JSON.stringify({ event: 'ready', url: server.url }));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
