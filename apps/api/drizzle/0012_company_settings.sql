CREATE TABLE "company_details" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"name" text NOT NULL,
	"website" text,
	"tax_code" text,
	"first_names" text NOT NULL,
	"surname" text NOT NULL,
	"email" text NOT NULL,
	"telephone" text,
	"address1" text NOT NULL,
	"address2" text,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"post_code" text NOT NULL,
	"country" text NOT NULL,
	"updated_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_details_tenant_id_dataset_id_pk" PRIMARY KEY("tenant_id","dataset_id")
);
--> statement-breakpoint
CREATE TABLE "company_logos" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"file_type" text NOT NULL,
	"file_size" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"updated_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_logos_tenant_id_dataset_id_pk" PRIMARY KEY("tenant_id","dataset_id")
);
--> statement-breakpoint
CREATE TABLE "customer_notification_settings" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"notification_name" text NOT NULL,
	"is_enabled" boolean NOT NULL,
	CONSTRAINT "customer_notification_settings_tenant_id_dataset_id_notification_name_pk" PRIMARY KEY("tenant_id","dataset_id","notification_name")
);
--> statement-breakpoint
CREATE TABLE "notification_deliveries" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"event_key" text NOT NULL,
	"notification_name" text NOT NULL,
	"email_address" text NOT NULL,
	"sent_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_deliveries_tenant_id_dataset_id_event_key_notification_name_email_address_pk" PRIMARY KEY("tenant_id","dataset_id","event_key","notification_name","email_address")
);
--> statement-breakpoint
CREATE TABLE "notification_recipients" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"type" text NOT NULL,
	"user_id" uuid,
	"email_address" text,
	"enabled" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_recipients_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
ALTER TABLE "company_details" ADD CONSTRAINT "company_details_dataset_fk" FOREIGN KEY ("tenant_id","dataset_id") REFERENCES "public"."datasets"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_logos" ADD CONSTRAINT "company_logos_dataset_fk" FOREIGN KEY ("tenant_id","dataset_id") REFERENCES "public"."datasets"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_notification_settings" ADD CONSTRAINT "customer_notification_settings_dataset_fk" FOREIGN KEY ("tenant_id","dataset_id") REFERENCES "public"."datasets"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_dataset_fk" FOREIGN KEY ("tenant_id","dataset_id") REFERENCES "public"."datasets"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_recipients" ADD CONSTRAINT "notification_recipients_dataset_fk" FOREIGN KEY ("tenant_id","dataset_id") REFERENCES "public"."datasets"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notification_recipients_id_key" ON "notification_recipients" USING btree ("id");--> statement-breakpoint
-- design §4: company settings are tenant-owned; the same policy as 0001, 0003 and 0006 applies.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['company_details', 'company_logos', 'notification_recipients', 'customer_notification_settings', 'notification_deliveries'] LOOP
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO ledgerline_app', t);
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (current_user <> ''ledgerline_app'' OR tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid) WITH CHECK (current_user <> ''ledgerline_app'' OR tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid)',
      t);
  END LOOP;
END $$;
