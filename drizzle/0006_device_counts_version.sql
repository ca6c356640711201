ALTER TABLE "device_counts" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Every statement that inserts, deletes or updates devices bumps the owner's version (the device list's page
-- anchors, src/server/db/deviceList.ts, are valid for one version).
CREATE OR REPLACE FUNCTION "device_counts_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "device_counts" ("owner_id", "n", "version")
    SELECT "owner_id", count(*), 1 FROM new_rows GROUP BY "owner_id"
  ON CONFLICT ("owner_id") DO UPDATE
    SET "n" = "device_counts"."n" + EXCLUDED."n", "version" = "device_counts"."version" + 1;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "device_counts_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "device_counts" c SET "n" = c."n" - d."n", "version" = c."version" + 1
    FROM (SELECT "owner_id", count(*) AS "n" FROM old_rows GROUP BY "owner_id") d
    WHERE c."owner_id" = d."owner_id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "device_counts_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "device_counts" c SET "n" = c."n" - d."n", "version" = c."version" + 1
    FROM (SELECT "owner_id", count(*) AS "n" FROM old_rows GROUP BY "owner_id") d
    WHERE c."owner_id" = d."owner_id";
  INSERT INTO "device_counts" ("owner_id", "n", "version")
    SELECT "owner_id", count(*), 1 FROM new_rows GROUP BY "owner_id"
  ON CONFLICT ("owner_id") DO UPDATE
    SET "n" = "device_counts"."n" + EXCLUDED."n", "version" = "device_counts"."version" + 1;
  RETURN NULL;
END $$;
