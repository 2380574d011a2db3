ALTER TABLE "company_preferences" ADD COLUMN "default_country_id" integer;--> statement-breakpoint
ALTER TABLE "company_preferences" ADD COLUMN "default_edit_payment_status" text DEFAULT 'Disable' NOT NULL;--> statement-breakpoint
ALTER TABLE "company_preferences" ADD COLUMN "allow_transaction_currency_change" text DEFAULT 'Disable' NOT NULL;--> statement-breakpoint
ALTER TABLE "company_preferences" ADD COLUMN "valid_until_unit" text;--> statement-breakpoint
ALTER TABLE "company_preferences" ADD COLUMN "valid_until_quantity" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "company_preferences" ADD COLUMN "default_usage_type" text DEFAULT 'Single' NOT NULL;