/**
 * What the readiness answer asks (issue 15; src/protocol/service.ts): the database, by a `select 1` on a
 * connection of its own (src/server/db/index.ts `probe`), and the signalling server, running from start-up until
 * close. Built by src/server/index.ts.
 */
export interface Readiness {
  /** When the process started (ms since the epoch). */
  startedAt: number;
  /** Whether PostgreSQL answers now; `reason` says why not (code and message of the error). Never rejects. */
  database(): Promise<{ up: boolean; reason: string | null }>;
  /** Whether the signalling (PeerJS) server is running. */
  signalling(): boolean;
}
