ALTER TABLE "tenants" ADD COLUMN "last_dataset_id" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- Companies deleted before this migration left their ids in activities and access keys.
UPDATE "tenants" t SET "last_dataset_id" = GREATEST(
  1,
  (SELECT COALESCE(MAX(id), 0) FROM "datasets" d WHERE d.tenant_id = t.id),
  (SELECT COALESCE(MAX(dataset_id), 0) FROM "audit_activities" a WHERE a.tenant_id = t.id),
  (SELECT COALESCE(MAX(dataset_id), 0) FROM "access_keys" k WHERE k.tenant_id = t.id)
);
