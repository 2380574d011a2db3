import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { datasets, tenants } from '../../db/schema.js';
import { companyDetails, companyLogos } from '../../db/schema-company.js';
import { paymentProviders } from '../../db/schema-providers.js';
import { inDataset, inTenant, type DatasetScope } from '../../platform/scope.js';

export type CompanyDetailsRow = typeof companyDetails.$inferSelect;
export type CompanyDetailsValues = Omit<CompanyDetailsRow, 'tenantId' | 'datasetId' | 'updatedOn'>;
export interface LogoValues {
  fileName: string;
  fileType: string;
  fileSize: number;
  data: Buffer;
}

/** Company details, logo and the company's own row; every call takes the company's scope. */
export function createCompanySettingsRepository() {
  const details = (scope: DatasetScope) => inDataset(companyDetails, scope);
  const logo = (scope: DatasetScope) => inDataset(companyLogos, scope);

  return {
    async company(executor: Executor, scope: DatasetScope) {
      const [row] = await executor
        .select({
          tenantId: tenants.id,
          tenantName: tenants.name,
          datasetId: datasets.id,
          datasetName: datasets.name,
          currency: datasets.currency,
          type: datasets.type,
        })
        .from(datasets)
        .innerJoin(tenants, eq(tenants.id, datasets.tenantId))
        .where(and(inTenant(datasets, scope), eq(datasets.id, scope.datasetId)));
      return row ?? null;
    },

    /** The company's default payment provider configuration, without settings or credentials. */
    async defaultPaymentProvider(executor: Executor, scope: DatasetScope) {
      const [row] = await executor
        .select({
          id: paymentProviders.id,
          providerName: paymentProviders.providerName,
          name: paymentProviders.name,
          enabled: paymentProviders.enabled,
          isTest: paymentProviders.isTest,
        })
        .from(paymentProviders)
        .where(and(inDataset(paymentProviders, scope), eq(paymentProviders.isDefault, true)));
      return row ?? null;
    },

    async details(executor: Executor, scope: DatasetScope): Promise<CompanyDetailsRow | null> {
      const [row] = await executor.select().from(companyDetails).where(details(scope));
      return row ?? null;
    },

    async saveDetails(executor: Executor, scope: DatasetScope, values: CompanyDetailsValues) {
      const updatedOn = new Date();
      await executor
        .insert(companyDetails)
        .values({ ...values, ...scope, updatedOn })
        .onConflictDoUpdate({
          target: [companyDetails.tenantId, companyDetails.datasetId],
          set: { ...values, updatedOn },
        });
    },

    /** The logo without its bytes: whether there is one, and its version for caches. */
    async logoInfo(executor: Executor, scope: DatasetScope) {
      const [row] = await executor
        .select({
          fileName: companyLogos.fileName,
          fileType: companyLogos.fileType,
          fileSize: companyLogos.fileSize,
          updatedOn: companyLogos.updatedOn,
        })
        .from(companyLogos)
        .where(logo(scope));
      return row ?? null;
    },

    async logo(executor: Executor, scope: DatasetScope) {
      const [row] = await executor.select().from(companyLogos).where(logo(scope));
      return row ?? null;
    },

    async saveLogo(executor: Executor, scope: DatasetScope, values: LogoValues) {
      const updatedOn = new Date();
      await executor
        .insert(companyLogos)
        .values({ ...values, ...scope, updatedOn })
        .onConflictDoUpdate({
          target: [companyLogos.tenantId, companyLogos.datasetId],
          set: { ...values, updatedOn },
        });
      return updatedOn;
    },

    async removeLogo(executor: Executor, scope: DatasetScope): Promise<boolean> {
      const rows = await executor
        .delete(companyLogos)
        .where(logo(scope))
        .returning({ datasetId: companyLogos.datasetId });
      return rows.length > 0;
    },
  };
}
export type CompanySettingsRepository = ReturnType<typeof createCompanySettingsRepository>;
