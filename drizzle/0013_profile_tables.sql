CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"scope" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_keys_secret_hash_unique" UNIQUE("secret_hash"),
	CONSTRAINT "api_keys_scope_ck" CHECK ("api_keys"."scope" in ('read', 'full'))
);
--> statement-breakpoint
CREATE TABLE "device_token_issues" (
	"device_row_id" uuid PRIMARY KEY NOT NULL,
	"jti" uuid NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tunnel_traffic" (
	"device_row_id" uuid NOT NULL,
	"day" date NOT NULL,
	"bytes_from_device" bigint DEFAULT 0 NOT NULL,
	"bytes_to_device" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "tunnel_traffic_device_row_id_day_pk" PRIMARY KEY("device_row_id","day")
);
--> statement-breakpoint
CREATE TABLE "user_avatars" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_token_issues" ADD CONSTRAINT "device_token_issues_device_row_id_devices_id_fk" FOREIGN KEY ("device_row_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tunnel_traffic" ADD CONSTRAINT "tunnel_traffic_device_row_id_devices_id_fk" FOREIGN KEY ("device_row_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_avatars" ADD CONSTRAINT "user_avatars_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_user_created_idx" ON "api_keys" USING btree ("user_id","created_at");--> statement-breakpoint
-- device_token_issues is kept by a trigger: every path that sets a device's token (generate_token, a new device,
-- the SSH install's register-token step) is seen without each of them writing it.
CREATE FUNCTION "device_token_issued"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.token_jti IS NOT NULL AND (TG_OP = 'INSERT' OR NEW.token_jti IS DISTINCT FROM OLD.token_jti) THEN
    INSERT INTO "device_token_issues" ("device_row_id", "jti", "issued_at") VALUES (NEW.id, NEW.token_jti, now())
    ON CONFLICT ("device_row_id") DO UPDATE SET "jti" = EXCLUDED."jti", "issued_at" = EXCLUDED."issued_at";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "devices_token_issued" AFTER INSERT OR UPDATE OF "token_jti" ON "devices"
  FOR EACH ROW EXECUTE FUNCTION "device_token_issued"();
