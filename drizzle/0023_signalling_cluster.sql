CREATE TABLE "signalling_instances" (
	"id" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signalling_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"instance_id" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signalling_peers" (
	"peer_id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"instance_id" text,
	"connected_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "signalling_messages_instance_idx" ON "signalling_messages" USING btree ("instance_id","id");--> statement-breakpoint
CREATE INDEX "signalling_peers_instance_idx" ON "signalling_peers" USING btree ("instance_id");