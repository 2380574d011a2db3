-- The grids' "contains" filters use trigram indexes (issue 4, speed).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "accounts" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"account_reference" text NOT NULL,
	"name" text NOT NULL,
	"short_name" text,
	"account_type" text DEFAULT 'Customer' NOT NULL,
	"currency" text,
	"balance" numeric(19, 4) DEFAULT '0' NOT NULL,
	"overdue_amount" numeric(19, 4) DEFAULT '0' NOT NULL,
	"disputed_amount" numeric(19, 4) DEFAULT '0' NOT NULL,
	"credit_limit" numeric(19, 4),
	"email_addresses" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"contacts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"addresses" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"disable_auto_apply_settlements" boolean DEFAULT false NOT NULL,
	"settlement_configuration_group_id" uuid,
	"disable_late_payments" boolean DEFAULT false NOT NULL,
	"late_payment_configuration_group_id" uuid,
	"edit_payment_status" text DEFAULT 'Default' NOT NULL,
	"edit_payment_override_status" text DEFAULT 'UseAccountStatus' NOT NULL,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
CREATE TABLE "banks" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"account_name" text NOT NULL,
	"currency" text NOT NULL,
	"description" text,
	"account_number" text,
	"sort_code" text,
	"iban" text,
	"bank_name" text,
	"source" text,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "banks_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"tenant_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer,
	"response" jsonb,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_tenant_id_client_id_key_pk" PRIMARY KEY("tenant_id","client_id","key")
);
--> statement-breakpoint
CREATE TABLE "payers" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"company_name" text,
	"first_names" text,
	"surname" text,
	"email_address" text,
	"address1" text,
	"address2" text,
	"address3" text,
	"address4" text,
	"city" text,
	"state" text,
	"post_code" text,
	"country" text,
	CONSTRAINT "payers_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
CREATE TABLE "payment_allocations" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"payment_transaction_id" uuid NOT NULL,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"entity_type" text NOT NULL,
	"transaction_id" uuid,
	"account_id" uuid,
	"settlement_offer_id" uuid,
	"discounted_amount" numeric(19, 4) DEFAULT '0' NOT NULL,
	"allocated_amount" numeric(19, 4) NOT NULL,
	CONSTRAINT "payment_allocations_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
CREATE TABLE "payment_fee_transactions" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"transaction_id" uuid,
	"payment_transaction_id" uuid NOT NULL,
	"fee_details" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "payment_fee_transactions_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
CREATE TABLE "payment_request_allocations" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"payment_request_id" uuid NOT NULL,
	"transaction_id" uuid NOT NULL,
	"amount" numeric(19, 4),
	"required" boolean,
	"can_edit_amount" boolean,
	"minimum_amount" numeric(19, 4),
	"maximum_amount" numeric(19, 4),
	CONSTRAINT "payment_request_allocations_tenant_id_dataset_id_payment_request_id_transaction_id_pk" PRIMARY KEY("tenant_id","dataset_id","payment_request_id","transaction_id")
);
--> statement-breakpoint
CREATE TABLE "payment_requests" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"request_type" text NOT NULL,
	"request_status" text DEFAULT 'Open' NOT NULL,
	"capture_type" text DEFAULT 'Immediate' NOT NULL,
	"usage_type" text,
	"customer_name" text,
	"customer_reference" text,
	"currency" text NOT NULL,
	"amount_to_pay" numeric(19, 4) NOT NULL,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"valid_from" timestamp (3) with time zone,
	"valid_until" timestamp (3) with time zone,
	"payment_required_by" timestamp (3) with time zone,
	"description" text,
	"payment_terms" text,
	"test" boolean DEFAULT false NOT NULL,
	"account_id" uuid,
	"billing_contact" jsonb,
	"delivery_contact" jsonb,
	CONSTRAINT "payment_requests_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
CREATE TABLE "payment_transactions" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"allocated_status" text DEFAULT 'WaitingToBeAllocated' NOT NULL,
	"ledgerline_reference" text NOT NULL,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"status_date_time" timestamp (3) with time zone NOT NULL,
	"total_amount" numeric(19, 4) NOT NULL,
	"currency" text NOT NULL,
	"fee" numeric(19, 4),
	"fee_currency" text,
	"payment_request_id" uuid,
	"customer_name" text,
	"company_name" text,
	"customer_details" jsonb,
	"account_id" uuid,
	"payer_id" uuid,
	"payment_provider_id" uuid,
	"payment_provider_name" text,
	"payment_provider_reference" text,
	"payment_method_type" text,
	CONSTRAINT "payment_transactions_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
CREATE TABLE "provider_events" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"payment_transaction_id" uuid NOT NULL,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"provider_name" text NOT NULL,
	"event_type" text NOT NULL,
	"record_type" text,
	"record_id" text,
	"status" text,
	"payload_file_name" text,
	"payload" text NOT NULL,
	CONSTRAINT "provider_events_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
CREATE TABLE "settlement_offers" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"transaction_id" uuid NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'Open' NOT NULL,
	"description" text,
	"valid_from" timestamp (3) with time zone,
	"valid_until" timestamp (3) with time zone,
	"currency" text NOT NULL,
	"amount" numeric(19, 4),
	"percentage_discount" numeric(7, 4),
	"priority" integer DEFAULT 0 NOT NULL,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "settlement_offers_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
CREATE TABLE "transaction_documents" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"transaction_id" uuid NOT NULL,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"file_name" text NOT NULL,
	"file_type" text NOT NULL,
	"file_size" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "transaction_documents_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"transaction_reference" text NOT NULL,
	"transaction_second_reference" text,
	"order_reference" text,
	"transaction_type" text NOT NULL,
	"transaction_date" timestamp (3) with time zone NOT NULL,
	"due_date" timestamp (3) with time zone,
	"currency" text NOT NULL,
	"transaction_amount" numeric(19, 4) NOT NULL,
	"discounted_amount" numeric(19, 4) DEFAULT '0' NOT NULL,
	"allocated_amount" numeric(19, 4) DEFAULT '0' NOT NULL,
	"paid_status" text DEFAULT 'Unpaid' NOT NULL,
	"description" text,
	"payment_terms_description" text,
	"posting_application" text,
	"custom_host_id" text,
	"contact" jsonb,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transactions_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_dataset_fk" FOREIGN KEY ("tenant_id","dataset_id") REFERENCES "public"."datasets"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "banks" ADD CONSTRAINT "banks_dataset_fk" FOREIGN KEY ("tenant_id","dataset_id") REFERENCES "public"."datasets"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payers" ADD CONSTRAINT "payers_account_fk" FOREIGN KEY ("tenant_id","dataset_id","account_id") REFERENCES "public"."accounts"("tenant_id","dataset_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_payment_transaction_fk" FOREIGN KEY ("tenant_id","dataset_id","payment_transaction_id") REFERENCES "public"."payment_transactions"("tenant_id","dataset_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_fee_transactions" ADD CONSTRAINT "payment_fee_transactions_payment_transaction_fk" FOREIGN KEY ("tenant_id","dataset_id","payment_transaction_id") REFERENCES "public"."payment_transactions"("tenant_id","dataset_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_request_allocations" ADD CONSTRAINT "payment_request_allocations_payment_request_fk" FOREIGN KEY ("tenant_id","dataset_id","payment_request_id") REFERENCES "public"."payment_requests"("tenant_id","dataset_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_request_allocations" ADD CONSTRAINT "payment_request_allocations_transaction_fk" FOREIGN KEY ("tenant_id","dataset_id","transaction_id") REFERENCES "public"."transactions"("tenant_id","dataset_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_requests" ADD CONSTRAINT "payment_requests_dataset_fk" FOREIGN KEY ("tenant_id","dataset_id") REFERENCES "public"."datasets"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_requests" ADD CONSTRAINT "payment_requests_account_fk" FOREIGN KEY ("tenant_id","dataset_id","account_id") REFERENCES "public"."accounts"("tenant_id","dataset_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD CONSTRAINT "payment_transactions_dataset_fk" FOREIGN KEY ("tenant_id","dataset_id") REFERENCES "public"."datasets"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_events" ADD CONSTRAINT "provider_events_payment_transaction_fk" FOREIGN KEY ("tenant_id","dataset_id","payment_transaction_id") REFERENCES "public"."payment_transactions"("tenant_id","dataset_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_offers" ADD CONSTRAINT "settlement_offers_transaction_fk" FOREIGN KEY ("tenant_id","dataset_id","transaction_id") REFERENCES "public"."transactions"("tenant_id","dataset_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_documents" ADD CONSTRAINT "transaction_documents_transaction_fk" FOREIGN KEY ("tenant_id","dataset_id","transaction_id") REFERENCES "public"."transactions"("tenant_id","dataset_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_account_fk" FOREIGN KEY ("tenant_id","dataset_id","account_id") REFERENCES "public"."accounts"("tenant_id","dataset_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_id_key" ON "accounts" USING btree ("id");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_reference_key" ON "accounts" USING btree ("tenant_id","dataset_id","account_reference");--> statement-breakpoint
CREATE INDEX "accounts_name_idx" ON "accounts" USING btree ("tenant_id","dataset_id","name","id");--> statement-breakpoint
CREATE INDEX "accounts_name_trgm_idx" ON "accounts" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "banks_id_key" ON "banks" USING btree ("id");--> statement-breakpoint
CREATE INDEX "banks_account_name_idx" ON "banks" USING btree ("tenant_id","dataset_id","account_name","id");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payers_id_key" ON "payers" USING btree ("id");--> statement-breakpoint
CREATE INDEX "payers_account_idx" ON "payers" USING btree ("tenant_id","dataset_id","account_id","created_on","id");--> statement-breakpoint
CREATE INDEX "payment_allocations_payment_idx" ON "payment_allocations" USING btree ("tenant_id","dataset_id","payment_transaction_id");--> statement-breakpoint
CREATE INDEX "payment_allocations_transaction_idx" ON "payment_allocations" USING btree ("tenant_id","dataset_id","transaction_id");--> statement-breakpoint
CREATE INDEX "payment_fee_transactions_payment_idx" ON "payment_fee_transactions" USING btree ("tenant_id","dataset_id","payment_transaction_id");--> statement-breakpoint
CREATE INDEX "payment_fee_transactions_transaction_idx" ON "payment_fee_transactions" USING btree ("tenant_id","dataset_id","transaction_id");--> statement-breakpoint
CREATE INDEX "payment_request_allocations_transaction_idx" ON "payment_request_allocations" USING btree ("tenant_id","dataset_id","transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_requests_id_key" ON "payment_requests" USING btree ("id");--> statement-breakpoint
CREATE INDEX "payment_requests_created_idx" ON "payment_requests" USING btree ("tenant_id","dataset_id","created_on","id");--> statement-breakpoint
CREATE INDEX "payment_requests_account_idx" ON "payment_requests" USING btree ("tenant_id","dataset_id","account_id","created_on");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_transactions_id_key" ON "payment_transactions" USING btree ("id");--> statement-breakpoint
CREATE INDEX "payment_transactions_status_date_idx" ON "payment_transactions" USING btree ("tenant_id","dataset_id","status_date_time","id");--> statement-breakpoint
CREATE INDEX "payment_transactions_status_idx" ON "payment_transactions" USING btree ("tenant_id","dataset_id","status","status_date_time","id");--> statement-breakpoint
CREATE INDEX "payment_transactions_allocated_idx" ON "payment_transactions" USING btree ("tenant_id","dataset_id","allocated_status","status_date_time");--> statement-breakpoint
CREATE INDEX "payment_transactions_customer_trgm_idx" ON "payment_transactions" USING gin ("customer_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "payment_transactions_request_idx" ON "payment_transactions" USING btree ("tenant_id","dataset_id","payment_request_id");--> statement-breakpoint
CREATE INDEX "payment_transactions_account_idx" ON "payment_transactions" USING btree ("tenant_id","dataset_id","account_id","status_date_time");--> statement-breakpoint
CREATE INDEX "payment_transactions_payer_idx" ON "payment_transactions" USING btree ("tenant_id","dataset_id","payer_id","status_date_time");--> statement-breakpoint
CREATE INDEX "provider_events_payment_idx" ON "provider_events" USING btree ("tenant_id","dataset_id","payment_transaction_id","created_on");--> statement-breakpoint
CREATE INDEX "settlement_offers_transaction_idx" ON "settlement_offers" USING btree ("tenant_id","dataset_id","transaction_id");--> statement-breakpoint
CREATE INDEX "transaction_documents_transaction_idx" ON "transaction_documents" USING btree ("tenant_id","dataset_id","transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_id_key" ON "transactions" USING btree ("id");--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_reference_key" ON "transactions" USING btree ("tenant_id","dataset_id","transaction_reference","transaction_type");--> statement-breakpoint
CREATE INDEX "transactions_date_idx" ON "transactions" USING btree ("tenant_id","dataset_id","transaction_date","id");--> statement-breakpoint
CREATE INDEX "transactions_account_idx" ON "transactions" USING btree ("tenant_id","dataset_id","account_id","transaction_date","id");--> statement-breakpoint
-- design §4: every receivables table is tenant-owned; the same policy as 0001 applies.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['accounts', 'payers', 'transactions', 'settlement_offers', 'transaction_documents',
    'payment_requests', 'payment_request_allocations', 'payment_transactions', 'payment_allocations',
    'payment_fee_transactions', 'provider_events', 'banks', 'idempotency_keys'] LOOP
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO ledgerline_app', t);
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (current_user <> ''ledgerline_app'' OR tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid) WITH CHECK (current_user <> ''ledgerline_app'' OR tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid)',
      t);
  END LOOP;
END $$;
