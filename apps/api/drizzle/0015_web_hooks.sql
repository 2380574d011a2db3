CREATE TABLE "web_hook_deliveries" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"event_seq" bigint NOT NULL,
	"endpoint_id" uuid,
	"record_id" text NOT NULL,
	"status" text DEFAULT 'Pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_on" timestamp (3) with time zone DEFAULT now(),
	"last_attempt_on" timestamp (3) with time zone,
	"status_code" integer,
	"duration_ms" integer,
	"error" text,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "web_hook_deliveries_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
CREATE TABLE "web_hook_endpoints" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"url" text NOT NULL,
	"description" text,
	"event_types" text[] DEFAULT '{}'::text[] NOT NULL,
	"secret" text NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"disabled_reason" text,
	"failing_since" timestamp (3) with time zone,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "web_hook_endpoints_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
CREATE TABLE "web_hook_events" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigserial NOT NULL,
	"type" text NOT NULL,
	"record_type" text NOT NULL,
	"record_id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"dispatched_on" timestamp (3) with time zone,
	CONSTRAINT "web_hook_events_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
ALTER TABLE "web_hook_deliveries" ADD CONSTRAINT "web_hook_deliveries_event_fk" FOREIGN KEY ("tenant_id","dataset_id","event_id") REFERENCES "public"."web_hook_events"("tenant_id","dataset_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "web_hook_deliveries" ADD CONSTRAINT "web_hook_deliveries_endpoint_fk" FOREIGN KEY ("tenant_id","dataset_id","endpoint_id") REFERENCES "public"."web_hook_endpoints"("tenant_id","dataset_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "web_hook_endpoints" ADD CONSTRAINT "web_hook_endpoints_dataset_fk" FOREIGN KEY ("tenant_id","dataset_id") REFERENCES "public"."datasets"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "web_hook_events" ADD CONSTRAINT "web_hook_events_dataset_fk" FOREIGN KEY ("tenant_id","dataset_id") REFERENCES "public"."datasets"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "web_hook_deliveries_due_idx" ON "web_hook_deliveries" USING btree ("next_attempt_on") WHERE status = 'Pending';--> statement-breakpoint
CREATE INDEX "web_hook_deliveries_order_idx" ON "web_hook_deliveries" USING btree ("tenant_id","dataset_id","record_id","event_seq") WHERE status = 'Pending';--> statement-breakpoint
CREATE INDEX "web_hook_deliveries_log_idx" ON "web_hook_deliveries" USING btree ("tenant_id","dataset_id","endpoint_id","event_seq");--> statement-breakpoint
CREATE INDEX "web_hook_events_undispatched_idx" ON "web_hook_events" USING btree ("seq") WHERE dispatched_on is null;--> statement-breakpoint
-- design §4: web hook records are tenant-owned; the same policy as 0001, 0003, 0006 and 0012.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['web_hook_events', 'web_hook_endpoints', 'web_hook_deliveries'] LOOP
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO ledgerline_app', t);
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (current_user <> ''ledgerline_app'' OR tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid) WITH CHECK (current_user <> ''ledgerline_app'' OR tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid)',
      t);
  END LOOP;
END $$;
--> statement-breakpoint
GRANT USAGE, SELECT ON SEQUENCE web_hook_events_seq_seq TO ledgerline_app;
