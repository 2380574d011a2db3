-- issue 22 item 6: the search box finds its words anywhere in a list's references and names
-- (ILIKE '%words%', platform/paging/compile-filter.ts compileSearch). A b-tree cannot serve a
-- pattern with a leading %, so each reference or name column of a big list gets a trigram index;
-- with accounts.name and payment_transactions.customer_name (0003) every text arm of the big lists'
-- searches can be read from an index and OR-ed in a bitmap (texticlike is LEAKPROOF since 0005, so
-- the index serves the search under row-level security too). The small configuration lists
-- (providers, late payments, settlements, reminder schedules, banks, companies) hold tens of rows
-- a company and are read through their (tenant, company) index. pg_trgm is loaded on PGlite too
-- (db/client.ts opens it with the extension).
--
-- A search that reads as an amount adds "amount = value" to the OR: each big list's amount gets a
-- b-tree of its own so that arm is an index read too (otherwise the whole OR falls back to scanning
-- the company's rows: 2.0 s over a million payments, measured), and numeric_eq is marked LEAKPROOF
-- as texticlike was in 0005, so under row-level security the planner may use it as an index
-- condition. numeric_eq compares any two numerics (NaN and infinities included) without raising an
-- error, so it cannot reveal a row the policy hides (docs/decisions.md "The search reads indexes").
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payment_transactions_reference_trgm_idx" ON "payment_transactions" USING gin ("ledgerline_reference" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payment_transactions_company_trgm_idx" ON "payment_transactions" USING gin ("company_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payment_requests_reference_trgm_idx" ON "payment_requests" USING gin ("customer_reference" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payment_requests_customer_trgm_idx" ON "payment_requests" USING gin ("customer_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "accounts_reference_trgm_idx" ON "accounts" USING gin ("account_reference" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "transactions_reference_trgm_idx" ON "transactions" USING gin ("transaction_reference" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payers_company_trgm_idx" ON "payers" USING gin ("company_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payers_first_names_trgm_idx" ON "payers" USING gin ("first_names" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payers_surname_trgm_idx" ON "payers" USING gin ("surname" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payers_email_trgm_idx" ON "payers" USING gin ("email_address" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payers_post_code_trgm_idx" ON "payers" USING gin ("post_code" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payment_disputes_reference_trgm_idx" ON "payment_disputes" USING gin ("dispute_reference" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payment_disputes_reason_trgm_idx" ON "payment_disputes" USING gin ("reason" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payment_transactions_amount_idx" ON "payment_transactions" USING btree ("tenant_id","dataset_id","total_amount","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payment_requests_amount_idx" ON "payment_requests" USING btree ("tenant_id","dataset_id","amount_to_pay","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "accounts_balance_idx" ON "accounts" USING btree ("tenant_id","dataset_id","balance","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "transactions_amount_idx" ON "transactions" USING btree ("tenant_id","dataset_id","transaction_amount","id");--> statement-breakpoint
DO $$
BEGIN
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    ALTER FUNCTION numeric_eq(numeric, numeric) LEAKPROOF;
  ELSE
    RAISE NOTICE 'numeric_eq(numeric, numeric) not marked LEAKPROOF (needs a superuser): a search by amount will scan';
  END IF;
END $$;
