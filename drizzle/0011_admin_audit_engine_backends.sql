CREATE TABLE "admin_audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" uuid NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "engine_backends" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"platform" text NOT NULL,
	"version" text NOT NULL,
	"image" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "engine_backends_platform_version_uq" UNIQUE("platform","version"),
	CONSTRAINT "engine_backends_platform_ck" CHECK ("engine_backends"."platform" in ('jetpack', 'driver'))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "username_key" text GENERATED ALWAYS AS (lower(username)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "admin_audit_log_at_idx" ON "admin_audit_log" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "admin_audit_log_actor_at_idx" ON "admin_audit_log" USING btree ("actor_id","at","id");--> statement-breakpoint
CREATE INDEX "admin_audit_log_action_at_idx" ON "admin_audit_log" USING btree ("action","at","id");--> statement-breakpoint
CREATE INDEX "users_username_key_idx" ON "users" USING btree ("username_key","id");--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_username_trgm_idx" ON "users" USING gin ("username" gin_trgm_ops);--> statement-breakpoint
-- The engine backends a fresh installation starts with (admins change them on /admin-panel/engines/engine-backends).
INSERT INTO "engine_backends" ("platform", "version", "image", "note") VALUES
  ('jetpack', '4.6', 'edge/inference-engine:l4t-r32.7', 'JetPack 4.6 (L4T R32.7, TensorRT 8.0)'),
  ('jetpack', '5.1', 'edge/inference-engine:l4t-r35.4', 'JetPack 5.1 (L4T R35, TensorRT 8.5)'),
  ('jetpack', '6.0', 'edge/inference-engine:l4t-r36.3', 'JetPack 6.0 (L4T R36, TensorRT 8.6)'),
  ('driver', '525', 'edge/inference-engine:x86-cuda12.0', 'x86, CUDA 12.0 (driver 525 or newer)'),
  ('driver', '535', 'edge/inference-engine:x86-cuda12.2', 'x86, CUDA 12.2 (driver 535 or newer)')
ON CONFLICT DO NOTHING;
