CREATE TABLE "dashboard_collections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dashboard_collections_user_name_uq" UNIQUE("user_id","name")
);
--> statement-breakpoint
CREATE TABLE "dashboards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"collection_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"charts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"layout" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_rollup_hourly" (
	"user_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"class" text NOT NULL,
	"camera_id" text NOT NULL,
	"severity" text NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "event_rollup_hourly_user_id_hour_class_camera_id_severity_pk" PRIMARY KEY("user_id","hour","class","camera_id","severity")
);
--> statement-breakpoint
CREATE TABLE "use_case_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"use_case_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"direction" text,
	"class" text NOT NULL,
	"camera_id" text NOT NULL,
	"track" text NOT NULL,
	"identity" text,
	"age_band" text,
	"gender" text,
	"plate" text,
	"speed" real,
	CONSTRAINT "use_case_records_key_uq" UNIQUE("use_case_id","key")
);
--> statement-breakpoint
CREATE TABLE "use_cases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"job_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"line" jsonb,
	"interval_seconds" integer DEFAULT 60 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dashboard_collections" ADD CONSTRAINT "dashboard_collections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboards" ADD CONSTRAINT "dashboards_collection_id_dashboard_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."dashboard_collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboards" ADD CONSTRAINT "dashboards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_rollup_hourly" ADD CONSTRAINT "event_rollup_hourly_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "use_case_records" ADD CONSTRAINT "use_case_records_use_case_id_use_cases_id_fk" FOREIGN KEY ("use_case_id") REFERENCES "public"."use_cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "use_case_records" ADD CONSTRAINT "use_case_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "use_cases" ADD CONSTRAINT "use_cases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "use_cases" ADD CONSTRAINT "use_cases_job_id_inference_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."inference_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dashboards_collection_idx" ON "dashboards" USING btree ("collection_id");--> statement-breakpoint
CREATE INDEX "use_case_records_case_at_idx" ON "use_case_records" USING btree ("use_case_id","kind","at");--> statement-breakpoint
CREATE INDEX "use_case_records_user_at_idx" ON "use_case_records" USING btree ("user_id","kind","at");--> statement-breakpoint
CREATE INDEX "use_cases_user_idx" ON "use_cases" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "use_cases_job_idx" ON "use_cases" USING btree ("job_id");