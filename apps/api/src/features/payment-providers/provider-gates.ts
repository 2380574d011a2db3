import { sql, type SQL } from 'drizzle-orm';
import {
  featureGateMessages,
  paymentProviderType,
  paymentProviderTypes,
  type PaymentProviderName,
} from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { paymentProviders } from '../../db/schema-providers.js';
import { UnprocessableError } from '../../platform/errors.js';
import type { DatasetScope } from '../../platform/scope.js';

/**
 * Which provider kinds a company may configure and offer. A kind needs
 * its `<Name>Provider` flag (on unless an operator or FEATURE_FLAGS turns it off), a beta kind
 * the tenant setting ShowBetaPaymentProviders 'true', a test-only kind (the Sandbox) a demo
 * company; Opayo's integrated form (Pi) needs the OpayoPi flag unless the configuration already
 * uses it (spec 3 §3). The same rules decide what the payer page offers and what starts a
 * payment: `offeredCondition` (docs/decisions/101-feature-flags-and-tenant-settings-are-checked-by.md, "Feature flags and tenant settings are checked
 * by the server").
 */
export interface ProviderGateFacts {
  /** The effective flags: the database's rows over the configured defaults. */
  flags: Record<string, boolean>;
  showBeta: boolean;
  demoCompany: boolean;
}

const names = (list: readonly { providerName: PaymentProviderName }[]) =>
  list.map((type) => type.providerName);
const betaKinds = names(paymentProviderTypes.filter((type) => type.isBeta));
const testKinds = names(paymentProviderTypes.filter((type) => type.isTestProvider));

/** `column` is not one of `values` (true for an empty list). */
function noneOf(column: SQL, values: readonly string[]): SQL {
  return values.length === 0
    ? sql`true`
    : sql`${column} not in (${sql.join(
        values.map((value) => sql`${value}`),
        sql`, `,
      )})`;
}

/** Why `providerName` may not be configured (or enabled) here; null when it may. */
export function kindRefusal(providerName: string, facts: ProviderGateFacts): string | null {
  const type = paymentProviderType(providerName);
  if (!type) return null;
  if (facts.flags[type.featureFlag] === false)
    return featureGateMessages.providerSwitchedOff(providerName);
  if (type.isBeta && !facts.showBeta) return featureGateMessages.providerBeta(providerName);
  if (type.isTestProvider && !facts.demoCompany)
    return featureGateMessages.testProviderOutsideDemo(providerName);
  return null;
}

export function createProviderGates(flagDefaults: Record<string, boolean>) {
  const switchedOffByDefault = paymentProviderTypes
    .filter((type) => flagDefaults[type.featureFlag] === false)
    .map((type) => type.providerName);

  return {
    /** The flags, the tenant's beta setting and the company's type, in one statement. */
    async facts(executor: Executor, scope: DatasetScope): Promise<ProviderGateFacts> {
      const result = (await executor.execute(sql`
        select
          (select coalesce(json_object_agg(f.name, f.enabled), '{}'::json) from feature_flags f) as flags,
          exists (select 1 from tenant_settings s where s.tenant_id = ${scope.tenantId}
            and s.name = 'ShowBetaPaymentProviders' and s.value = 'true') as show_beta,
          exists (select 1 from datasets d where d.tenant_id = ${scope.tenantId}
            and d.id = ${scope.datasetId} and d.type = 'Demo') as demo_company`)) as unknown as {
        rows: {
          flags: Record<string, boolean> | string;
          show_beta: boolean;
          demo_company: boolean;
        }[];
      };
      const row = result.rows[0]!;
      const stored = typeof row.flags === 'string' ? JSON.parse(row.flags) : row.flags;
      return {
        flags: { ...flagDefaults, ...stored },
        showBeta: row.show_beta,
        demoCompany: row.demo_company,
      };
    },

    /**
     * Refuses (422) a configuration the company may not have. An update that leaves it disabled
     * is always allowed, so a configuration of a kind withdrawn later can still be switched off;
     * Pi stays allowed where the stored configuration already uses it.
     */
    check(
      facts: ProviderGateFacts,
      input: { providerName: string; enabled: boolean; settings: Record<string, unknown> },
      stored: { settings: unknown } | null = null,
    ): void {
      const creating = stored === null;
      const kind = creating || input.enabled ? kindRefusal(input.providerName, facts) : null;
      if (kind) throw new UnprocessableError(kind, { providerName: [kind] });
      const wasPi = (stored?.settings as { integrationType?: unknown } | null)?.integrationType;
      if (
        input.providerName === 'Opayo' &&
        input.settings.integrationType === 'Pi' &&
        wasPi !== 'Pi' &&
        facts.flags.OpayoPi !== true
      ) {
        const message = featureGateMessages.opayoPiOff;
        throw new UnprocessableError(message, { 'settings.integrationType': [message] });
      }
    },

    /**
     * The configurations of a company the payer page may offer and a payment may start with: one
     * condition on `payment_providers`, so the page's read stays one statement.
     */
    offeredCondition(): SQL {
      const p = paymentProviders;
      const flag = sql`${p.providerName} || 'Provider'`;
      return sql`(
        coalesce((select f.enabled from feature_flags f where f.name = ${flag}),
          ${noneOf(sql`${p.providerName}`, switchedOffByDefault)})
        and (${noneOf(sql`${p.providerName}`, betaKinds)} or exists (select 1 from tenant_settings s
          where s.tenant_id = ${p.tenantId} and s.name = 'ShowBetaPaymentProviders' and s.value = 'true'))
        and (${noneOf(sql`${p.providerName}`, testKinds)} or exists (select 1 from datasets d
          where d.tenant_id = ${p.tenantId} and d.id = ${p.datasetId} and d.type = 'Demo')))`;
    },
  };
}
export type ProviderGates = ReturnType<typeof createProviderGates>;
