-- design §4: the application runs every request as this non-owner role; row-level security on
-- tenant_id (FORCE) backs up the application's own scoping. Owner connections (migrations, start-up,
-- sign-in lookups that precede knowing the tenant) are not restricted by the policy.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'ledgerline_app') THEN
    CREATE ROLE ledgerline_app NOLOGIN;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
--> statement-breakpoint
DO $$
BEGIN
  EXECUTE format('GRANT ledgerline_app TO %I', current_user);
EXCEPTION WHEN OTHERS THEN NULL;
END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO ledgerline_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ledgerline_app;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ledgerline_app;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO ledgerline_app;
--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['datasets', 'users', 'access_keys', 'tenant_settings', 'audit_activities'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (current_user <> ''ledgerline_app'' OR tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid) WITH CHECK (current_user <> ''ledgerline_app'' OR tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid)',
      t);
  END LOOP;
END $$;
--> statement-breakpoint
ALTER TABLE tenants ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE tenants FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON tenants USING (current_user <> 'ledgerline_app' OR id = nullif(current_setting('app.tenant_id', true), '')::uuid) WITH CHECK (current_user <> 'ledgerline_app' OR id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
REVOKE INSERT, UPDATE, DELETE ON feature_flags FROM ledgerline_app;
--> statement-breakpoint
-- The app role reads sessions, tenants and flags only through owner code paths.
REVOKE ALL ON sessions, idp_accounts, idp_models, idp_secrets FROM ledgerline_app;
