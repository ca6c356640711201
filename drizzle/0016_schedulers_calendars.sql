CREATE TABLE "scheduling_calendar_jobs" (
	"job_id" uuid PRIMARY KEY NOT NULL,
	"calendar_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scheduling_calendars" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"name" text NOT NULL,
	"time_zone" text NOT NULL,
	"intervals" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scheduling_calendars_owner_name_uq" UNIQUE("owner_id","name")
);
--> statement-breakpoint
ALTER TABLE "scheduling_calendar_jobs" ADD CONSTRAINT "scheduling_calendar_jobs_job_id_inference_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."inference_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduling_calendar_jobs" ADD CONSTRAINT "scheduling_calendar_jobs_calendar_id_scheduling_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."scheduling_calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduling_calendars" ADD CONSTRAINT "scheduling_calendars_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;