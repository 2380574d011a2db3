CREATE TABLE "access_keys" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"dataset_id" integer,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"hash" text NOT NULL,
	"valid_until" timestamp with time zone,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"last_used_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "access_keys_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "audit_activities" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"dataset_id" integer,
	"operation" text NOT NULL,
	"resource_type" text,
	"resource_id" text,
	"user_id" uuid,
	"user_name" text,
	"access_key_id" uuid,
	"status" integer NOT NULL,
	"ip_address" text,
	"request_id" text,
	"timestamp" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "audit_activities_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "datasets" (
	"tenant_id" uuid NOT NULL,
	"id" integer NOT NULL,
	"name" text NOT NULL,
	"short_name" text,
	"description" text,
	"status" text NOT NULL,
	"host_id" text NOT NULL,
	"custom_host_id" text NOT NULL,
	"host_system_name" text NOT NULL,
	"currency" text NOT NULL,
	"rebuild_status" text DEFAULT 'None' NOT NULL,
	"last_sync" timestamp with time zone,
	"copy_from_dataset_id" integer,
	"type" text DEFAULT 'Production' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "datasets_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "feature_flags" (
	"name" text PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idp_accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"email_normalized" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idp_models" (
	"model" text NOT NULL,
	"id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"user_code" text,
	"uid" text,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "idp_models_model_id_pk" PRIMARY KEY("model","id")
);
--> statement-breakpoint
CREATE TABLE "idp_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"xsrf_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "tenant_settings" (
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tenant_settings_tenant_id_name_pk" PRIMARY KEY("tenant_id","name")
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"email_address" text NOT NULL,
	"email_normalized" text NOT NULL,
	"display_name" text NOT NULL,
	"forename" text,
	"surname" text,
	"role" text NOT NULL,
	"settings" jsonb NOT NULL,
	"idp_issuer" text,
	"idp_subject" text,
	"disabled_at" timestamp with time zone,
	"last_sign_in_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "access_keys" ADD CONSTRAINT "access_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_activities" ADD CONSTRAINT "audit_activities_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "datasets" ADD CONSTRAINT "datasets_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_settings" ADD CONSTRAINT "tenant_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "access_keys_hash_key" ON "access_keys" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "audit_activities_dataset_idx" ON "audit_activities" USING btree ("tenant_id","dataset_id","id");--> statement-breakpoint
CREATE INDEX "audit_activities_resource_idx" ON "audit_activities" USING btree ("tenant_id","resource_id");--> statement-breakpoint
CREATE UNIQUE INDEX "idp_accounts_email_key" ON "idp_accounts" USING btree ("email_normalized");--> statement-breakpoint
CREATE INDEX "idp_models_grant_idx" ON "idp_models" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "idp_models_uid_idx" ON "idp_models" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "idp_models_user_code_idx" ON "idp_models" USING btree ("user_code");--> statement-breakpoint
CREATE INDEX "idp_models_expires_idx" ON "idp_models" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sessions_tenant_user_idx" ON "sessions" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_id_key" ON "users" USING btree ("id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("email_normalized");--> statement-breakpoint
CREATE UNIQUE INDEX "users_tenant_display_name_key" ON "users" USING btree ("tenant_id",lower("display_name"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_idp_subject_key" ON "users" USING btree ("idp_issuer","idp_subject");