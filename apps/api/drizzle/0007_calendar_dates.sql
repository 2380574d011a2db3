-- Issue 10 item 2: calendar days are stored as date. The values were instants written as UTC
-- (the site sent days as UTC midnight, connectors ISO date-times); each keeps its UTC day, whatever
-- the session's time zone, so no stored day moves.
ALTER TABLE "payment_requests" ALTER COLUMN "payment_required_by" SET DATA TYPE date USING ("payment_required_by" AT TIME ZONE 'UTC')::date;--> statement-breakpoint
ALTER TABLE "settlement_offers" ALTER COLUMN "valid_from" SET DATA TYPE date USING ("valid_from" AT TIME ZONE 'UTC')::date;--> statement-breakpoint
ALTER TABLE "settlement_offers" ALTER COLUMN "valid_until" SET DATA TYPE date USING ("valid_until" AT TIME ZONE 'UTC')::date;--> statement-breakpoint
ALTER TABLE "transactions" ALTER COLUMN "transaction_date" SET DATA TYPE date USING ("transaction_date" AT TIME ZONE 'UTC')::date;--> statement-breakpoint
ALTER TABLE "transactions" ALTER COLUMN "due_date" SET DATA TYPE date USING ("due_date" AT TIME ZONE 'UTC')::date;