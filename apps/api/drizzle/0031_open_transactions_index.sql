-- issue 23: the aged receivables and the dashboard's figures read the items still open (owing or
-- owed something) of one company; a paid invoice leaves this index. Its columns answer the report
-- from the index alone (index-only scan). The predicate is written as the report writes it
-- (features/reports/reports.repository.ts openNow), so the planner matches the two.
CREATE INDEX IF NOT EXISTS "transactions_open_idx" ON "transactions" USING btree ("tenant_id","dataset_id","account_id") INCLUDE ("id","currency","transaction_type","transaction_date","due_date","transaction_amount","allocated_amount","discounted_amount") WHERE abs("allocated_amount") + abs("discounted_amount") < abs("transaction_amount");
