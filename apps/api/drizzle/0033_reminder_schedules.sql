-- Issue 23: reminder schedules of a company, the reminders sent to its accounts, the invoice steps
-- each reminder covered (a step is sent once per invoice) and the company's daily runs.
CREATE TABLE "reminder_schedules" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"name" text NOT NULL,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reminder_schedules_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
ALTER TABLE "reminder_schedules" ADD CONSTRAINT "reminder_schedules_dataset_fk" FOREIGN KEY ("tenant_id","dataset_id") REFERENCES "public"."datasets"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reminder_schedules_name_idx" ON "reminder_schedules" USING btree ("tenant_id","dataset_id","name","id");--> statement-breakpoint
CREATE TABLE "reminders" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"schedule_id" uuid,
	"run_on" date NOT NULL,
	"source" text NOT NULL,
	"email_address" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"html" text NOT NULL,
	"statement_url" text,
	"invoices" jsonb NOT NULL,
	"totals" jsonb NOT NULL,
	"status" text DEFAULT 'Queued' NOT NULL,
	"error_message" text,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"claimed_on" timestamp (3) with time zone,
	"sent_on" timestamp (3) with time zone,
	CONSTRAINT "reminders_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
ALTER TABLE "reminders" ADD CONSTRAINT "reminders_dataset_fk" FOREIGN KEY ("tenant_id","dataset_id") REFERENCES "public"."datasets"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminders" ADD CONSTRAINT "reminders_account_fk" FOREIGN KEY ("tenant_id","dataset_id","account_id") REFERENCES "public"."accounts"("tenant_id","dataset_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reminders_account_idx" ON "reminders" USING btree ("tenant_id","dataset_id","account_id","created_on","id");--> statement-breakpoint
-- The mail outbox: the reminders not yet mailed (or claimed by a sender that may have died).
CREATE INDEX "reminders_outbox_idx" ON "reminders" USING btree ("tenant_id","dataset_id","id") WHERE "status" IN ('Queued', 'Sending');--> statement-breakpoint
CREATE TABLE "reminder_invoice_steps" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"transaction_id" uuid NOT NULL,
	"step_id" uuid NOT NULL,
	"reminder_id" uuid NOT NULL,
	CONSTRAINT "reminder_invoice_steps_pk" PRIMARY KEY("tenant_id","dataset_id","transaction_id","step_id")
);
--> statement-breakpoint
ALTER TABLE "reminder_invoice_steps" ADD CONSTRAINT "reminder_invoice_steps_transaction_fk" FOREIGN KEY ("tenant_id","dataset_id","transaction_id") REFERENCES "public"."transactions"("tenant_id","dataset_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminder_invoice_steps" ADD CONSTRAINT "reminder_invoice_steps_reminder_fk" FOREIGN KEY ("tenant_id","dataset_id","reminder_id") REFERENCES "public"."reminders"("tenant_id","dataset_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "reminder_runs" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"run_on" date NOT NULL,
	"started_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_on" timestamp (3) with time zone,
	"reminders" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "reminder_runs_pk" PRIMARY KEY("tenant_id","dataset_id","run_on")
);
--> statement-breakpoint
ALTER TABLE "reminder_runs" ADD CONSTRAINT "reminder_runs_dataset_fk" FOREIGN KEY ("tenant_id","dataset_id") REFERENCES "public"."datasets"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The account's choice: disable_reminders = 'none', no schedule = the company default; paused
-- holds every reminder of the account until it is resumed.
ALTER TABLE "accounts" ADD COLUMN "disable_reminders" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "reminder_schedule_id" uuid;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "reminders_paused" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "company_preferences" ADD COLUMN "default_reminder_schedule_id" uuid;--> statement-breakpoint
ALTER TABLE "company_preferences" ADD COLUMN "reminder_time" text DEFAULT '09:00' NOT NULL;--> statement-breakpoint
ALTER TABLE "company_preferences" ADD COLUMN "reminder_time_zone" text DEFAULT 'Europe/London' NOT NULL;--> statement-breakpoint
-- design §4: the new tables are tenant-owned; the same policy as 0001, 0003 and 0020 applies.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['reminder_schedules', 'reminders', 'reminder_invoice_steps', 'reminder_runs'] LOOP
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO ledgerline_app', t);
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (current_user <> ''ledgerline_app'' OR tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid) WITH CHECK (current_user <> ''ledgerline_app'' OR tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid)',
      t);
  END LOOP;
END $$;
