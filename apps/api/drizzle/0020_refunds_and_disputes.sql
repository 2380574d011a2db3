-- Issue 19: a Refund-type payment transaction names the payment it gives money back from.
ALTER TABLE "payment_transactions" ADD COLUMN "refund_of_id" uuid;--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD COLUMN "refund_reason" text;--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD CONSTRAINT "payment_transactions_refund_of_fk" FOREIGN KEY ("tenant_id","dataset_id","refund_of_id") REFERENCES "public"."payment_transactions"("tenant_id","dataset_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_transactions_refund_of_idx" ON "payment_transactions" USING btree ("tenant_id","dataset_id","refund_of_id","created_on") WHERE "refund_of_id" IS NOT NULL;--> statement-breakpoint
-- Issue 19: disputes and chargebacks of a payment, from its provider's notifications.
CREATE TABLE "payment_disputes" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"payment_transaction_id" uuid NOT NULL,
	"dispute_reference" text NOT NULL,
	"amount" numeric(19, 4) NOT NULL,
	"currency" text NOT NULL,
	"reason" text,
	"stage" text NOT NULL,
	"respond_by" timestamp (3) with time zone,
	"opened_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"closed_on" timestamp (3) with time zone,
	"updated_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"reversed_amount" numeric(19, 4) DEFAULT '0' NOT NULL,
	CONSTRAINT "payment_disputes_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
ALTER TABLE "payment_disputes" ADD CONSTRAINT "payment_disputes_dataset_fk" FOREIGN KEY ("tenant_id","dataset_id") REFERENCES "public"."datasets"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_disputes" ADD CONSTRAINT "payment_disputes_payment_transaction_fk" FOREIGN KEY ("tenant_id","dataset_id","payment_transaction_id") REFERENCES "public"."payment_transactions"("tenant_id","dataset_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_disputes_reference_key" ON "payment_disputes" USING btree ("tenant_id","dataset_id","payment_transaction_id","dispute_reference");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_disputes_id_key" ON "payment_disputes" USING btree ("id");--> statement-breakpoint
CREATE INDEX "payment_disputes_opened_idx" ON "payment_disputes" USING btree ("tenant_id","dataset_id","opened_on","id");--> statement-breakpoint
CREATE INDEX "payment_disputes_stage_idx" ON "payment_disputes" USING btree ("tenant_id","dataset_id","stage","opened_on","id");--> statement-breakpoint
-- design §4: disputes are tenant-owned; the same policy as 0001, 0003, 0011 and 0018 applies.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['payment_disputes'] LOOP
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO ledgerline_app', t);
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (current_user <> ''ledgerline_app'' OR tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid) WITH CHECK (current_user <> ''ledgerline_app'' OR tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid)',
      t);
  END LOOP;
END $$;
