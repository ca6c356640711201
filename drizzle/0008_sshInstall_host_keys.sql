CREATE TABLE "ssh_host_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"host" text NOT NULL,
	"port" integer NOT NULL,
	"key_type" text NOT NULL,
	"fingerprint" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ssh_host_keys_owner_host_port_uq" UNIQUE("owner_id","host","port")
);
--> statement-breakpoint
ALTER TABLE "ssh_host_keys" ADD CONSTRAINT "ssh_host_keys_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;