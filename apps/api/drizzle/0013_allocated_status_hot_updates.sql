-- An allocated-status change should be a HOT update: the new row version stays on its page and no
-- index gets an entry (issue 9, defect 3: a 100,000-row import wrote 900,000 index entries). That
-- needs no index on allocated_status and free room on each page for a new version of every row on
-- it: a bulk import changes nearly all of a page's rows in one statement, whose old versions cannot
-- be pruned until it commits, so fillfactor 90 made 12 % of such updates HOT and 50 made all of them
-- (docs/decisions.md "The allocated-status import is one statement"). The fillfactor applies to
-- pages written from now on; `VACUUM FULL payment_transactions` (which locks the table while it
-- runs) repacks existing ones.
DROP INDEX "payment_transactions_allocated_idx";--> statement-breakpoint
ALTER TABLE "payment_transactions" SET (fillfactor = 50);
