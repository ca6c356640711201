DROP INDEX "users_username_trgm_idx";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "search_key" text GENERATED ALWAYS AS (email || chr(31) || lower(username)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin ("search_key" gin_trgm_ops);