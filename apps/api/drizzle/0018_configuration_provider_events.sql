CREATE TABLE "payment_provider_events" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"payment_provider_id" uuid NOT NULL,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"provider_name" text NOT NULL,
	"event_type" text NOT NULL,
	"record_type" text,
	"record_id" text,
	"status" text,
	"payload" text NOT NULL,
	CONSTRAINT "payment_provider_events_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
ALTER TABLE "payment_provider_events" ADD CONSTRAINT "payment_provider_events_provider_fk" FOREIGN KEY ("tenant_id","dataset_id","payment_provider_id") REFERENCES "public"."payment_providers"("tenant_id","dataset_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_provider_events_list_idx" ON "payment_provider_events" USING btree ("tenant_id","dataset_id","payment_provider_id","created_on","id");--> statement-breakpoint
-- design §4: a configuration's provider events are tenant-owned; the same policy as 0001, 0003 and 0011 applies.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['payment_provider_events'] LOOP
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO ledgerline_app', t);
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (current_user <> ''ledgerline_app'' OR tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid) WITH CHECK (current_user <> ''ledgerline_app'' OR tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid)',
      t);
  END LOOP;
END $$;
