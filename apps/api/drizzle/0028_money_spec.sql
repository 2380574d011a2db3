-- issue 21 items 19 and 21 (spec 2 §3, §4): an account's default usage type for its new payment
-- requests (null: the company's default), and the ERP's own name of an accounting transaction's type
-- (null: the type's name in words).
ALTER TABLE "accounts" ADD COLUMN "default_usage_type" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "transaction_type_name" text;
