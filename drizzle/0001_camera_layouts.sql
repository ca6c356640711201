CREATE TABLE "camera_layouts" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"streams" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "camera_layouts" ADD CONSTRAINT "camera_layouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;