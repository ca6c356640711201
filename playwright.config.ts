import { defineConfig } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/chromium';

/**
 * End-to-end tests on the real stack: `npm start`'s own entry point (server, embedded PostgreSQL, simulated
 * agents over real WebRTC) in a fresh data directory, driven through Debian's Chromium.
 */
const PORT = Number(process.env.E2E_PORT ?? 18080);
export const E2E_URL = `http://127.0.0.1:${PORT}`;
// Chosen once by the runner; its workers inherit it (tests read DATA_DIR/agents.json to kill an agent).
process.env.E2E_DATA_DIR ??= path.join(os.tmpdir(), `edge-console-e2e-${process.pid}`);
const dataDir = process.env.E2E_DATA_DIR;

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  // One retry, reported as "flaky" when it passes: a job's start on a loaded machine now and then never gets its
  // data channel open (issue 10; the console offers again after 8 s, the cause is not found yet).
  retries: 1,
  reporter: [['list']],
  use: {
    baseURL: E2E_URL,
    headless: true,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
  },
  webServer: {
    command: `node --import tsx src/start.ts`,
    url: `${E2E_URL}/api/demo-account`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    env: {
      PORT: String(PORT),
      DATA_DIR: dataDir,
      // start.ts removes it (and its relocated cluster) once the stack has stopped.
      REMOVE_DATA_DIR_ON_STOP: '1',
      DEMO_EMAIL: 'demo@edge.local',
      DEMO_PASSWORD: 'demo-edge-2026',
      LOG_LEVEL: 'error',
      // The suite signs the demo account in dozens of times a minute; the limit itself has unit tests.
      LOGIN_RATE_LIMIT_PER_MIN: '1000',
      // Alarm-channel tests post to a webhook receiver on 127.0.0.1; the SSRF guard refuses it otherwise.
      ALLOW_PRIVATE_URLS: '1',
      SEED_EXTRA_USERS: JSON.stringify([
        {
          email: 'second@edge.local',
          password: 'second-edge-2026',
          username: 'Second User',
          roles: ['user'],
          devices: [{ label: 'Second Box', kind: 'x86', cameras: 2 }],
        },
        {
          // The device page's token and delete flows take this device off the air (tests/e2e/devicePage.spec.ts).
          email: 'spare@edge.local',
          password: 'spare-edge-2026',
          username: 'Spare User',
          roles: ['user'],
          devices: [{ label: 'Spare Box', kind: 'x86', cameras: 2 }],
        },
        {
          email: 'quota@edge.local',
          password: 'quota-edge-2026',
          username: 'Quota User',
          roles: ['user'],
          devices: [{ label: 'Quota Box', kind: 'x86', cameras: 2, maxStreams: 0 }],
        },
        { email: 'disposable@edge.local', password: 'disposable-edge-2026', roles: ['user'], devices: [] },
        {
          // Its device's start connections on the default engine fail (§4 step 7: the deep-stream restart),
          // tests/e2e/inferenceFailures.spec.ts. The demo's models and application, to start a job with.
          email: 'faulty@edge.local',
          password: 'faulty-edge-2026',
          roles: ['user'],
          demoContent: true,
          devices: [{ label: 'Faulty Box', kind: 'x86', cameras: 2, faults: ['inference-connection'] }],
        },
      ]),
    },
  },
});
