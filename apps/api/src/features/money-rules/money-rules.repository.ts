import { and, asc, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import type { settlementConfigurations } from '../../db/schema-money-rules.js';
import { bankRates, companyPreferences } from '../../db/schema-money-rules.js';
import { createBankRateHistory, type BankRateChange } from './bank-rates.js';
import type { AccountChoice, LatePaymentRule, MoneyRules, SettlementGroupRules } from './quote.js';
import type { ManualOffer, SettlementFilter, SettlementRule } from './settlement-match.js';
import { type DatasetScope, inDataset } from '../../platform/scope.js';

/**
 * `any($1::uuid[])`: one bound array for any number of ids, so a page of 1,000 is one parameter
 * and one plan, not a thousand placeholders (the values stay bound, never spliced into the SQL).
 */
function anyIds(ids: readonly string[]) {
  return sql`any(${`{${ids.join(',')}}`}::uuid[])`;
}

type ConfigurationRow = typeof settlementConfigurations.$inferSelect;

export function toSettlementRule(row: ConfigurationRow): SettlementRule {
  const filterGroup = row.filterGroup as { filterConfigurations?: SettlementFilter[] };
  return {
    id: row.id,
    type: row.type as SettlementRule['type'],
    description: row.description,
    dateType: row.dateType as SettlementRule['dateType'],
    numberOfDays: row.numberOfDays,
    percentageDiscount: row.percentageDiscount,
    amount: row.amount,
    currency: row.currency,
    filters: filterGroup.filterConfigurations ?? [],
  };
}

/** The Bank Rate history, oldest first. */
export async function readBankRates(executor: Executor): Promise<BankRateChange[]> {
  const rows = await executor.select().from(bankRates).orderBy(asc(bankRates.effectiveFrom));
  return rows.map((row) => ({ from: row.effectiveFrom, rate: row.rate }));
}

export async function readCompanyPreferences(executor: Executor, scope: DatasetScope) {
  const [row] = await executor
    .select()
    .from(companyPreferences)
    .where(and(inDataset(companyPreferences, scope)));
  return {
    defaultSettlementConfigurationGroupId: row?.defaultSettlementConfigurationGroupId ?? null,
    defaultLatePaymentConfigurationId: row?.defaultLatePaymentConfigurationId ?? null,
  };
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** A json column: node-postgres and PGlite parse it; text is parsed here just in case. */
function json<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

interface RulesRow {
  groups: unknown;
  configurations: unknown;
  late_payments: unknown;
  preferences: unknown;
  allow_late_payments: string | null;
  rates: unknown;
}

/**
 * Every rule of a company as the columns of one row: groups, configurations, late-payment
 * configurations, the two defaults, AllowLatePayments and the Bank Rate history, each as a json
 * column. Numbers travel as text so nothing is rounded.
 */
function moneyRulesColumns(scope: DatasetScope) {
  const t = sql`${scope.tenantId}::uuid`;
  const d = sql`${scope.datasetId}::integer`;
  return sql`(select json_agg(json_build_object('id', g.id, 'name', g.name, 'customerEnabled', g.customer_enabled))
         from settlement_configuration_groups g where g.tenant_id = ${t} and g.dataset_id = ${d}) as groups,
      (select json_agg(json_build_object('id', c.id, 'groupId', c.group_id, 'type', c.type,
           'description', c.description, 'dateType', c.date_type, 'numberOfDays', c.number_of_days,
           'percentageDiscount', c.percentage_discount::text, 'amount', c.amount::text,
           'currency', c.currency, 'filterGroup', c.filter_group) order by c.created_on, c.id)
         from settlement_configurations c where c.tenant_id = ${t} and c.dataset_id = ${d}) as configurations,
      (select json_agg(json_build_object('id', l.id, 'name', l.name, 'type', l.type, 'enabled', l.enabled,
           'gracePeriodInDays', l.grace_period_in_days, 'applyCharges', l.apply_charges))
         from late_payment_configurations l where l.tenant_id = ${t} and l.dataset_id = ${d}) as late_payments,
      (select json_build_object('group', p.default_settlement_configuration_group_id,
           'latePayment', p.default_late_payment_configuration_id)
         from company_preferences p where p.tenant_id = ${t} and p.dataset_id = ${d}) as preferences,
      (select s.value from tenant_settings s where s.tenant_id = ${t} and s.name = 'AllowLatePayments')
         as allow_late_payments,
      (select json_agg(json_build_object('from', r.effective_from::text, 'rate', r.rate::text)
           order by r.effective_from) from bank_rates r) as rates`;
}

/** The rules of a row with the columns of moneyRulesColumns. */
function moneyRulesOf(row: RulesRow | undefined): MoneyRules {
  const groups = json<{ id: string; name: string; customerEnabled: boolean }[]>(row?.groups, []);
  const configurations = json<Omit<ConfigurationRow, 'tenantId' | 'datasetId' | 'createdOn'>[]>(
    row?.configurations,
    [],
  );
  const latePayments = json<LatePaymentRule[]>(row?.late_payments, []);
  const preferences = json<{ group: string | null; latePayment: string | null } | null>(
    row?.preferences,
    null,
  );
  const settlementGroups = new Map<string, SettlementGroupRules>();
  for (const group of groups) {
    settlementGroups.set(group.id, {
      ...group,
      configurations: configurations
        .filter((configuration) => configuration.groupId === group.id)
        .map((configuration) => toSettlementRule(configuration as ConfigurationRow)),
    });
  }
  return {
    settlementGroups,
    defaultSettlementGroupId: preferences?.group ?? null,
    latePaymentConfigurations: new Map(latePayments.map((rule) => [rule.id, rule])),
    defaultLatePaymentConfigurationId: preferences?.latePayment ?? null,
    latePaymentsApplied: row?.allow_late_payments === 'true',
    bankRates: createBankRateHistory(json<BankRateChange[]>(row?.rates, [])),
  };
}

/** Every rule of a company, read once per request (never per invoice) in one statement. */
export async function loadMoneyRules(executor: Executor, scope: DatasetScope): Promise<MoneyRules> {
  const [row] = rowsOf<RulesRow>(await executor.execute(sql`select ${moneyRulesColumns(scope)}`));
  return moneyRulesOf(row);
}

/** spec 3 §4: 'none' when auto-apply is off, 'default' when no group is set, else the group. */
export function choiceOf(disabled: boolean, id: string | null): AccountChoice {
  if (disabled) return 'none';
  return id === null ? 'default' : { id };
}

export interface InvoiceFactsRow {
  choices: unknown;
  offers: unknown;
}

/**
 * The account choices (spec 3 §4) of some accounts and the manual offers (spec 2) of some
 * transactions, in one statement; each id list is one bound array. Only accounts whose choice is
 * not the default come back (an account not in `choices` takes the default), and the offers are
 * found per id through `settlement_offers_transaction_idx` (a lateral look-up: the planner would
 * otherwise scan the company's offers and filter them by the 1,000 ids), with the columns the
 * engine reads, each offer a json array.
 */
/**
 * The two columns of the invoice facts (`choices`, `offers`) for the accounts and transactions
 * the two conditions pick: a bound array (readInvoiceFacts) or a subquery (the payer page's one
 * statement, pay.repository.ts).
 */
export function invoiceFactsColumns(
  scope: { tenantId: unknown; datasetId: unknown },
  accountIdIs: SQL,
  transactionIdIs: SQL,
  /** The offers' FROM, with the rows as `o`; by default the company's offers whose transaction is picked. */
  offersFrom?: SQL,
) {
  const t = sql`${scope.tenantId}::uuid`;
  const d = sql`${scope.datasetId}::integer`;
  const offers =
    offersFrom ??
    sql`settlement_offers o where o.tenant_id = ${t} and o.dataset_id = ${d} and o.transaction_id ${transactionIdIs}`;
  return sql`(select json_agg(json_build_object('id', a.id, 'disableSettlements', a.disable_auto_apply_settlements,
           'group', a.settlement_configuration_group_id, 'disableLatePayments', a.disable_late_payments,
           'latePayment', a.late_payment_configuration_group_id))
         from accounts a where a.tenant_id = ${t} and a.dataset_id = ${d}
           and a.id ${accountIdIs}
           and (a.disable_auto_apply_settlements or a.settlement_configuration_group_id is not null
             or a.disable_late_payments or a.late_payment_configuration_group_id is not null)) as choices,
      (select json_agg(json_build_array(o.transaction_id, o.id, o.type, o.status, o.description,
           o.valid_from, o.valid_until, o.currency, o.amount::text, o.percentage_discount::text,
           o.priority))
         from ${offers}) as offers`;
}

export type InvoiceFacts = ReturnType<typeof invoiceFactsOf>;

/** The invoice facts' columns for a list of accounts and transactions (each id list one bound array). */
function pageFactsColumns(
  scope: DatasetScope,
  accountIds: readonly string[],
  transactionIds: readonly string[],
) {
  const t = sql`${scope.tenantId}::uuid`;
  const d = sql`${scope.datasetId}::integer`;
  const ids = [...new Set(transactionIds)];
  return invoiceFactsColumns(
    scope,
    sql`= ${anyIds([...new Set(accountIds)])}`,
    sql`= ${anyIds(ids)}`,
    // each id once (an id given twice would find its offers twice), each found through the index
    sql`unnest(${`{${ids.join(',')}}`}::uuid[]) as page(id)
         cross join lateral (select * from settlement_offers s where s.tenant_id = ${t}
           and s.dataset_id = ${d} and s.transaction_id = page.id offset 0) o`,
  );
}

export async function readInvoiceFacts(
  executor: Executor,
  scope: DatasetScope,
  accountIds: readonly string[],
  transactionIds: readonly string[],
) {
  if (transactionIds.length === 0) return invoiceFactsOf(undefined);
  const [row] = rowsOf<InvoiceFactsRow>(
    await executor.execute(sql`select ${pageFactsColumns(scope, accountIds, transactionIds)}`),
  );
  return invoiceFactsOf(row);
}

/**
 * The company's rules and the invoice facts of some accounts and transactions in one statement:
 * a page's quotes then cost one round trip after the page, not two.
 */
export async function readRulesAndInvoiceFacts(
  executor: Executor,
  scope: DatasetScope,
  accountIds: readonly string[],
  transactionIds: readonly string[],
) {
  const [row] = rowsOf<RulesRow & InvoiceFactsRow>(
    await executor.execute(
      sql`select ${moneyRulesColumns(scope)}, ${pageFactsColumns(scope, accountIds, transactionIds)}`,
    ),
  );
  return { rules: moneyRulesOf(row), facts: invoiceFactsOf(row) };
}

/** The account choices and manual offers of a row with the columns of invoiceFactsColumns. */
export function invoiceFactsOf(row: InvoiceFactsRow | undefined) {
  const choices = new Map<string, { settlement: AccountChoice; latePayment: AccountChoice }>();
  const offers = new Map<string, ManualOffer[]>();
  type ChoiceRow = {
    id: string;
    disableSettlements: boolean;
    group: string | null;
    disableLatePayments: boolean;
    latePayment: string | null;
  };
  for (const choice of json<ChoiceRow[]>(row?.choices, [])) {
    choices.set(choice.id, {
      settlement: choiceOf(choice.disableSettlements, choice.group),
      latePayment: choiceOf(choice.disableLatePayments, choice.latePayment),
    });
  }
  // Positional (json renders a date as YYYY-MM-DD): a third cheaper to build than named keys.
  type OfferRow = [
    transactionId: string,
    id: string,
    type: ManualOffer['type'],
    status: ManualOffer['status'],
    description: string | null,
    validFrom: string | null,
    validUntil: string | null,
    currency: string,
    amount: string | null,
    percentageDiscount: string | null,
    priority: number,
  ];
  for (const [
    transactionId,
    id,
    type,
    status,
    description,
    validFrom,
    validUntil,
    currency,
    amount,
    percentageDiscount,
    priority,
  ] of json<OfferRow[]>(row?.offers, [])) {
    const offer: ManualOffer = {
      id,
      type,
      status,
      description,
      validFrom,
      validUntil,
      currency,
      amount,
      percentageDiscount,
      priority,
    };
    const list = offers.get(transactionId);
    if (list) list.push(offer);
    else offers.set(transactionId, [offer]);
  }
  return { choices, offers };
}
