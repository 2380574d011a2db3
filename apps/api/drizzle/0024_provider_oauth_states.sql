-- issue 20 item 9: the state of a Stripe Connect or GoCardless authorisation, issued by the server,
-- bound to the signed-in session (or access key) that started it, short-lived and spent once.
CREATE TABLE "provider_oauth_states" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"provider_name" text NOT NULL,
	"payment_provider_id" uuid,
	"owner" text NOT NULL,
	"state_hash" text NOT NULL,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_on" timestamp (3) with time zone NOT NULL,
	"used_on" timestamp (3) with time zone,
	CONSTRAINT "provider_oauth_states_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
ALTER TABLE "provider_oauth_states" ADD CONSTRAINT "provider_oauth_states_dataset_fk" FOREIGN KEY ("tenant_id","dataset_id") REFERENCES "public"."datasets"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_oauth_states_hash_idx" ON "provider_oauth_states" USING btree ("tenant_id","dataset_id","state_hash");--> statement-breakpoint
-- design §4: tenant-owned; the same policy as 0018 applies.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['provider_oauth_states'] LOOP
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO ledgerline_app', t);
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (current_user <> ''ledgerline_app'' OR tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid) WITH CHECK (current_user <> ''ledgerline_app'' OR tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid)',
      t);
  END LOOP;
END $$;
