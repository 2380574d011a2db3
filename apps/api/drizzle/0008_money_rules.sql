CREATE TABLE "bank_rates" (
	"effective_from" date PRIMARY KEY NOT NULL,
	"rate" numeric(7, 4) NOT NULL,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "company_preferences" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"default_settlement_configuration_group_id" uuid,
	"default_late_payment_configuration_id" uuid,
	"updated_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_preferences_tenant_id_dataset_id_pk" PRIMARY KEY("tenant_id","dataset_id")
);
--> statement-breakpoint
CREATE TABLE "late_payment_configurations" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"fee_group_type" text DEFAULT 'LatePayment' NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"grace_period_in_days" integer DEFAULT 0 NOT NULL,
	"recurring_period_in_days" integer,
	"percentage" numeric(7, 4),
	"amount" numeric(19, 4),
	"apply_charges" boolean DEFAULT true NOT NULL,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "late_payment_configurations_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
CREATE TABLE "settlement_configuration_groups" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"customer_enabled" boolean DEFAULT false NOT NULL,
	"transaction_enabled" boolean DEFAULT false NOT NULL,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "settlement_configuration_groups_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
CREATE TABLE "settlement_configurations" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"group_id" uuid NOT NULL,
	"type" text NOT NULL,
	"description" text,
	"date_type" text NOT NULL,
	"number_of_days" integer NOT NULL,
	"percentage_discount" numeric(7, 4),
	"amount" numeric(19, 4),
	"currency" text,
	"filter_group" jsonb DEFAULT '{"filterConfigurations":[]}'::jsonb NOT NULL,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "settlement_configurations_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
ALTER TABLE "company_preferences" ADD CONSTRAINT "company_preferences_dataset_fk" FOREIGN KEY ("tenant_id","dataset_id") REFERENCES "public"."datasets"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "late_payment_configurations" ADD CONSTRAINT "late_payment_configurations_dataset_fk" FOREIGN KEY ("tenant_id","dataset_id") REFERENCES "public"."datasets"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_configuration_groups" ADD CONSTRAINT "settlement_configuration_groups_dataset_fk" FOREIGN KEY ("tenant_id","dataset_id") REFERENCES "public"."datasets"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_configurations" ADD CONSTRAINT "settlement_configurations_group_fk" FOREIGN KEY ("tenant_id","dataset_id","group_id") REFERENCES "public"."settlement_configuration_groups"("tenant_id","dataset_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "late_payment_configurations_name_idx" ON "late_payment_configurations" USING btree ("tenant_id","dataset_id","name","id");--> statement-breakpoint
CREATE INDEX "settlement_configuration_groups_name_idx" ON "settlement_configuration_groups" USING btree ("tenant_id","dataset_id","name","id");--> statement-breakpoint
CREATE INDEX "settlement_configurations_group_idx" ON "settlement_configurations" USING btree ("tenant_id","dataset_id","group_id","created_on");--> statement-breakpoint
-- design §4: the company-owned tables get the same policy as 0001, 0003 and 0006.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['settlement_configuration_groups', 'settlement_configurations', 'late_payment_configurations', 'company_preferences'] LOOP
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO ledgerline_app', t);
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (current_user <> ''ledgerline_app'' OR tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid) WITH CHECK (current_user <> ''ledgerline_app'' OR tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid)',
      t);
  END LOOP;
END $$;
--> statement-breakpoint
-- The Bank Rate history is shared by every tenant and read-only to the application; operators
-- extend it with `npm run admin -- set-bank-rate`. Seeded from ../shared/reference/uk-late-payment.md
-- (2018-08-02 0.75 is the rate in force on 31 December 2019, the 2020 H1 reference rate).
REVOKE INSERT, UPDATE, DELETE ON "bank_rates" FROM ledgerline_app;
--> statement-breakpoint
INSERT INTO "bank_rates" ("effective_from", "rate") VALUES
  ('2018-08-02', 0.75), ('2020-03-11', 0.25), ('2020-03-19', 0.10), ('2021-12-16', 0.25),
  ('2022-02-03', 0.50), ('2022-03-17', 0.75), ('2022-05-05', 1.00), ('2022-06-16', 1.25),
  ('2022-08-04', 1.75), ('2022-09-22', 2.25), ('2022-11-03', 3.00), ('2022-12-15', 3.50),
  ('2023-02-02', 4.00), ('2023-03-23', 4.25), ('2023-05-11', 4.50), ('2023-06-22', 5.00),
  ('2023-08-03', 5.25), ('2024-08-01', 5.00), ('2024-11-07', 4.75), ('2025-02-06', 4.50),
  ('2025-05-08', 4.25), ('2025-08-07', 4.00), ('2025-12-18', 3.75);
