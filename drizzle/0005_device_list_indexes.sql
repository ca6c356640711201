CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "device_counts" (
	"owner_id" uuid PRIMARY KEY NOT NULL,
	"n" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "devices_owner_idx";--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "label_key" text GENERATED ALWAYS AS (lower(label)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "client_key" text GENERATED ALWAYS AS (lower(client_name)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "device_counts" ADD CONSTRAINT "device_counts_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "devices_owner_label_idx" ON "devices" USING btree ("owner_id","label_key","id");--> statement-breakpoint
CREATE INDEX "devices_owner_client_idx" ON "devices" USING btree ("owner_id","client_key","id");--> statement-breakpoint
CREATE INDEX "devices_owner_created_idx" ON "devices" USING btree ("owner_id","created_at","id");--> statement-breakpoint
CREATE INDEX "devices_owner_id_idx" ON "devices" USING btree ("owner_id","id");--> statement-breakpoint
CREATE INDEX "devices_label_trgm_idx" ON "devices" USING gin ("label" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_client_trgm_idx" ON "devices" USING gin ("client_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_device_id_trgm_idx" ON "devices" USING gin ("device_id" gin_trgm_ops);--> statement-breakpoint
-- device_counts is kept by statement-level triggers (one update per statement, even for a bulk insert).
CREATE FUNCTION "device_counts_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "device_counts" ("owner_id", "n")
    SELECT "owner_id", count(*) FROM new_rows GROUP BY "owner_id"
  ON CONFLICT ("owner_id") DO UPDATE SET "n" = "device_counts"."n" + EXCLUDED."n";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "device_counts_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "device_counts" c SET "n" = c."n" - d."n"
    FROM (SELECT "owner_id", count(*) AS "n" FROM old_rows GROUP BY "owner_id") d
    WHERE c."owner_id" = d."owner_id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "device_counts_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "device_counts" c SET "n" = c."n" - d."n"
    FROM (SELECT "owner_id", count(*) AS "n" FROM old_rows GROUP BY "owner_id") d
    WHERE c."owner_id" = d."owner_id";
  INSERT INTO "device_counts" ("owner_id", "n")
    SELECT "owner_id", count(*) FROM new_rows GROUP BY "owner_id"
  ON CONFLICT ("owner_id") DO UPDATE SET "n" = "device_counts"."n" + EXCLUDED."n";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "devices_counted_insert" AFTER INSERT ON "devices"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "device_counts_inserted"();--> statement-breakpoint
CREATE TRIGGER "devices_counted_delete" AFTER DELETE ON "devices"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "device_counts_deleted"();--> statement-breakpoint
CREATE TRIGGER "devices_counted_update" AFTER UPDATE ON "devices"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "device_counts_moved"();--> statement-breakpoint
INSERT INTO "device_counts" ("owner_id", "n") SELECT "owner_id", count(*) FROM "devices" GROUP BY "owner_id";
