CREATE TABLE "applications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"model_version_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"input_source" text DEFAULT 'camera' NOT NULL,
	"input_width" integer,
	"input_height" integer,
	"fps" integer DEFAULT 25 NOT NULL,
	"threshold" double precision DEFAULT 0.3 NOT NULL,
	"classes" text[] DEFAULT '{}'::text[] NOT NULL,
	"tracker" text DEFAULT 'none' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "applications_owner_name_uq" UNIQUE("owner_id","name"),
	CONSTRAINT "applications_threshold_ck" CHECK ("applications"."threshold" >= 0 and "applications"."threshold" <= 1)
);
--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_model_version_id_model_versions_id_fk" FOREIGN KEY ("model_version_id") REFERENCES "public"."model_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "applications_owner_updated_idx" ON "applications" USING btree ("owner_id","updated_at");--> statement-breakpoint
CREATE INDEX "applications_model_version_idx" ON "applications" USING btree ("model_version_id");