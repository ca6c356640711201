-- issue 15: rate-limit counts shared by every server instance (src/server/db/schema/rateLimits.ts). UNLOGGED by
-- hand (drizzle-kit has no such option): counts are short-lived, writing them skips the WAL and its fsync; a
-- PostgreSQL crash empties the table (every limit starts over).
CREATE UNLOGGED TABLE "rate_limit_counts" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
