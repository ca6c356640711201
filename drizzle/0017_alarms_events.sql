CREATE TABLE "alarms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text DEFAULT 'object' NOT NULL,
	"sources" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"classes" text[] DEFAULT '{}'::text[] NOT NULL,
	"zones" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"min_score" real DEFAULT 0.3 NOT NULL,
	"cooldown_seconds" integer DEFAULT 30 NOT NULL,
	"severity" text DEFAULT 'warning' NOT NULL,
	"calendar_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"silences" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alarms_user_name_uq" UNIQUE("user_id","name")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"alarm_id" uuid,
	"device_id" uuid,
	"camera_id" text NOT NULL,
	"camera_kind" text DEFAULT 'PHYSICAL' NOT NULL,
	"job_id" uuid,
	"track_id" text,
	"at" timestamp with time zone NOT NULL,
	"class" text NOT NULL,
	"score" real NOT NULL,
	"box" jsonb NOT NULL,
	"severity" text NOT NULL,
	"reviewed" boolean DEFAULT false NOT NULL,
	"snapshot_file" text,
	"clip_file" text,
	"identity" text,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_user_idempotency_uq" UNIQUE("user_id","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "face_identities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"identity" text NOT NULL,
	"label" text NOT NULL,
	"image_file" text,
	"source_event_id" uuid,
	"blacklisted" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "face_identities_user_identity_uq" UNIQUE("user_id","identity")
);
--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_alarm_id_alarms_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_job_id_inference_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."inference_jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "face_identities" ADD CONSTRAINT "face_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "face_identities" ADD CONSTRAINT "face_identities_source_event_id_events_id_fk" FOREIGN KEY ("source_event_id") REFERENCES "public"."events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_user_at_idx" ON "events" USING btree ("user_id","at");--> statement-breakpoint
CREATE INDEX "events_user_class_at_idx" ON "events" USING btree ("user_id","class","at");--> statement-breakpoint
CREATE INDEX "events_user_camera_at_idx" ON "events" USING btree ("user_id","camera_id","at");--> statement-breakpoint
CREATE INDEX "events_alarm_at_idx" ON "events" USING btree ("alarm_id","at");--> statement-breakpoint
CREATE INDEX "events_at_brin_idx" ON "events" USING brin ("at");