-- issue 23 (account statement and pay many): a statement link of one account. The link carries a
-- random 32-byte token (base64url); only its SHA-256 is kept, unique across all companies so the
-- public payer page finds the link (and its company) from the token alone. It expires as the
-- company's payment request links do (company preferences), or never when the company sets none.
CREATE TABLE "statement_links" (
	"tenant_id" uuid NOT NULL,
	"dataset_id" integer NOT NULL,
	"id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_on" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_on" timestamp (3) with time zone,
	CONSTRAINT "statement_links_tenant_id_dataset_id_id_pk" PRIMARY KEY("tenant_id","dataset_id","id")
);
--> statement-breakpoint
ALTER TABLE "statement_links" ADD CONSTRAINT "statement_links_dataset_fk" FOREIGN KEY ("tenant_id","dataset_id") REFERENCES "public"."datasets"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_links" ADD CONSTRAINT "statement_links_account_fk" FOREIGN KEY ("tenant_id","dataset_id","account_id") REFERENCES "public"."accounts"("tenant_id","dataset_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "statement_links_token_hash_key" ON "statement_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "statement_links_account_idx" ON "statement_links" USING btree ("tenant_id","dataset_id","account_id");--> statement-breakpoint
-- design §4: tenant-owned; the same policy as 0018 applies.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['statement_links'] LOOP
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO ledgerline_app', t);
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (current_user <> ''ledgerline_app'' OR tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid) WITH CHECK (current_user <> ''ledgerline_app'' OR tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid)',
      t);
  END LOOP;
END $$;
