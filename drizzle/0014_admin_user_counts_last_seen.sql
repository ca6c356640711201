CREATE TABLE "device_last_seen" (
	"device_id" text PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_counts" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_last_seen" ADD CONSTRAINT "device_last_seen_device_id_devices_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("device_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- user_counts is kept by statement-level triggers (one update per statement, even for a bulk insert).
CREATE FUNCTION "user_counts_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "user_counts" SET "n" = "n" + (SELECT count(*) FROM new_rows) WHERE "id" = 1;
  ELSE
    UPDATE "user_counts" SET "n" = "n" - (SELECT count(*) FROM old_rows) WHERE "id" = 1;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_counted_insert" AFTER INSERT ON "users"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_counts_changed"();--> statement-breakpoint
CREATE TRIGGER "users_counted_delete" AFTER DELETE ON "users"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_counts_changed"();--> statement-breakpoint
INSERT INTO "user_counts" ("id", "n") SELECT 1, count(*) FROM "users";
