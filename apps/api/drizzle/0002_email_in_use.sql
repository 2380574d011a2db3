-- E-mail addresses are unique across tenants (docs/decisions.md), but the application role sees
-- only its own tenant's users. This owner function answers the one question it may ask of all of
-- them — is this normalised address taken? — without revealing anything else.
CREATE OR REPLACE FUNCTION email_in_use(normalized text) RETURNS boolean
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
  AS $$ SELECT EXISTS (SELECT 1 FROM users WHERE email_normalized = normalized) $$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION email_in_use(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION email_in_use(text) TO ledgerline_app;
