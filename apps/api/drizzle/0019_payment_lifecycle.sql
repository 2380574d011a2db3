-- Issue 19: one payment lifecycle (docs/decisions.md "One payment lifecycle, declared as data").
-- A Processing payment's hidden sub-state (its card ticket claimed, its charge waiting for 3-D
-- Secure) was a suffix on the provider reference, so a notification matching by reference missed
-- it: it is a column now, and the reference is the provider's own again.
ALTER TABLE "payment_transactions" ADD COLUMN "provider_step" text;--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD CONSTRAINT "payment_transactions_provider_step_check" CHECK ("provider_step" in ('ticket', 'challenge', 'challengeAnswered'));--> statement-breakpoint
UPDATE "payment_transactions" SET
  "provider_step" = CASE WHEN "payment_provider_reference" ~ ':challenge:ticket$' THEN 'challengeAnswered' WHEN "payment_provider_reference" ~ ':challenge$' THEN 'challenge' ELSE 'ticket' END,
  "payment_provider_reference" = regexp_replace("payment_provider_reference", '(:challenge:ticket|:challenge|:ticket)$', '')
WHERE "payment_provider_reference" ~ ':(ticket|challenge)$';--> statement-breakpoint
-- A reservation ends when its provider's authorisation window does (the expiry job, the staff queue).
ALTER TABLE "payment_transactions" ADD COLUMN "authorisation_expires_on" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "payment_transactions_reservation_idx" ON "payment_transactions" ("tenant_id", "dataset_id", "authorisation_expires_on", "id") WHERE "status" = 'Pending';--> statement-breakpoint
-- What an allocation gave back (a refund, a dispute lost), so a dispute won can restore it.
ALTER TABLE "payment_allocations" ADD COLUMN "reversed_amount" numeric(19, 4) DEFAULT '0' NOT NULL;--> statement-breakpoint
-- Reserved money never counted as paid: a Pending payment's allocations become Provisional and
-- leave their invoices' allocated (and discounted) amounts; a request a reservation holds is Pending.
WITH provisional AS (
  UPDATE "payment_allocations" a SET "status" = 'Provisional'
  FROM "payment_transactions" p
  WHERE p."tenant_id" = a."tenant_id" AND p."dataset_id" = a."dataset_id" AND p."id" = a."payment_transaction_id"
    AND p."status" = 'Pending' AND a."status" = 'Allocated'
  RETURNING a."tenant_id", a."dataset_id", a."transaction_id", a."allocated_amount", a."discounted_amount"
), per_invoice AS (
  SELECT "tenant_id", "dataset_id", "transaction_id", sum("allocated_amount") AS allocated, sum("discounted_amount") AS discounted
  FROM provisional WHERE "transaction_id" IS NOT NULL GROUP BY 1, 2, 3
)
UPDATE "transactions" t SET
  "allocated_amount" = greatest(t."allocated_amount" - s.allocated, 0),
  "discounted_amount" = greatest(t."discounted_amount" - s.discounted, 0),
  "paid_status" = CASE
    WHEN greatest(t."allocated_amount" - s.allocated, 0) + greatest(t."discounted_amount" - s.discounted, 0) >= t."transaction_amount" THEN 'FullyPaid'
    WHEN greatest(t."allocated_amount" - s.allocated, 0) + greatest(t."discounted_amount" - s.discounted, 0) > 0 THEN 'PartPaid'
    ELSE 'Unpaid' END
FROM per_invoice s
WHERE t."tenant_id" = s."tenant_id" AND t."dataset_id" = s."dataset_id" AND t."id" = s."transaction_id";--> statement-breakpoint
UPDATE "payment_requests" r SET "request_status" = 'Pending'
WHERE r."request_status" = 'Completed'
  AND EXISTS (SELECT 1 FROM "payment_transactions" p WHERE p."tenant_id" = r."tenant_id" AND p."dataset_id" = r."dataset_id" AND p."payment_request_id" = r."id" AND p."status" = 'Pending')
  AND NOT EXISTS (SELECT 1 FROM "payment_transactions" p WHERE p."tenant_id" = r."tenant_id" AND p."dataset_id" = r."dataset_id" AND p."payment_request_id" = r."id" AND p."status" = 'Paid');
