/**
 * CLI: `npx tsx src/server/main.ts` (npm run server). Configured by the environment: PORT, HOST (127.0.0.1), DATA_DIR,
 * DATABASE_URL, STATIC_DIR, LOG_LEVEL, ICE_SERVERS. Stops cleanly on SIGINT/SIGTERM (embedded PostgreSQL too).
 */
import { startServer } from './index';

async function main(): Promise<void> {
  const server = await startServer();
  console.log(`server listening on ${server.url}`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
