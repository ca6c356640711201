CREATE TABLE "agent_releases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version" text NOT NULL,
	"file_name" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agent_releases_version_unique" UNIQUE("version")
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "latitude" double precision;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "longitude" double precision;--> statement-breakpoint
ALTER TABLE "ip_cameras" ADD COLUMN "username" text;--> statement-breakpoint
ALTER TABLE "ip_cameras" ADD COLUMN "password_secret" text;