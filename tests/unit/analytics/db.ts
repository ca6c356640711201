/** Direct SQL on a test server's embedded PostgreSQL (its data dir holds the password; postmaster.pid the port). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { EMBEDDED_DATABASE } from '../../../src/server/db/embedded';

export async function sqlClient(dataDir: string): Promise<pg.Client> {
  const { password } = JSON.parse(readFileSync(path.join(dataDir, 'pg-credentials.json'), 'utf8')) as {
    password: string;
  };
  const port = Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[3]);
  const client = new pg.Client({
    host: '127.0.0.1',
    port,
    user: 'postgres',
    password,
    database: EMBEDDED_DATABASE,
  });
  await client.connect();
  return client;
}
