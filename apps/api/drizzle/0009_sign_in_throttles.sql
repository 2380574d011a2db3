CREATE TABLE "sign_in_throttles" (
	"key" text PRIMARY KEY NOT NULL,
	"attempts" integer NOT NULL,
	"reset_at" timestamp with time zone NOT NULL,
	"next_attempt_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "sign_in_throttles_reset_idx" ON "sign_in_throttles" USING btree ("reset_at");--> statement-breakpoint
-- Owner code paths only, as sessions: the app role never reads or writes sign-in attempts.
REVOKE ALL ON sign_in_throttles FROM ledgerline_app;
