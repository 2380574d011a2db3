CREATE TABLE "pay_quotes" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"payment_transaction_id" uuid NOT NULL,
	"payment_request_id" uuid NOT NULL,
	"offered" jsonb NOT NULL,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"status_checked_on" timestamp (3) with time zone,
	"failure_message" text,
	CONSTRAINT "pay_quotes_tenant_id_dataset_id_payment_transaction_id_pk" PRIMARY KEY("tenant_id","dataset_id","payment_transaction_id")
);
--> statement-breakpoint
CREATE TABLE "provider_notifications" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"provider_name" text NOT NULL,
	"event_id" text NOT NULL,
	"configuration_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"summary" jsonb NOT NULL,
	"payload" text NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp (3) with time zone,
	"outcome" text,
	CONSTRAINT "provider_notifications_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
ALTER TABLE "pay_quotes" ADD CONSTRAINT "pay_quotes_payment_transaction_fk" FOREIGN KEY ("tenant_id","dataset_id","payment_transaction_id") REFERENCES "public"."payment_transactions"("tenant_id","dataset_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_notifications" ADD CONSTRAINT "provider_notifications_dataset_fk" FOREIGN KEY ("tenant_id","dataset_id") REFERENCES "public"."datasets"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pay_quotes_payment_key" ON "pay_quotes" USING btree ("payment_transaction_id");--> statement-breakpoint
CREATE INDEX "pay_quotes_request_idx" ON "pay_quotes" USING btree ("tenant_id","dataset_id","payment_request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "provider_notifications_event_key" ON "provider_notifications" USING btree ("provider_name","event_id");--> statement-breakpoint
CREATE INDEX "provider_notifications_unprocessed_idx" ON "provider_notifications" USING btree ("tenant_id","dataset_id","received_at");--> statement-breakpoint
-- design §4: the payer page's records are tenant-owned; the same policy as 0001, 0003 and 0006 applies.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['pay_quotes', 'provider_notifications'] LOOP
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO ledgerline_app', t);
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (current_user <> ''ledgerline_app'' OR tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid) WITH CHECK (current_user <> ''ledgerline_app'' OR tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid)',
      t);
  END LOOP;
END $$;
