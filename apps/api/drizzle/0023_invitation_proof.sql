-- Issue 20 item 6: an invited user's first sign-in at an external identity provider brings the
-- invitation's single-use proof; only its sha-256 is kept, until it is used or expires.
ALTER TABLE "users" ADD COLUMN "invitation_token_hash" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "invitation_expires_at" timestamp with time zone;
