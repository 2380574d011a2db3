import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  inArray,
  isNull,
  sql,
  type Query,
  type SQL,
} from 'drizzle-orm';
import type { PgDialect, PgSession, PgTable } from 'drizzle-orm/pg-core';
import type { Db, Executor, Tx } from '../../db/client.js';
import { datasets } from '../../db/schema.js';
import { companyDetails, companyLogos } from '../../db/schema-company.js';
import { payQuotes } from '../../db/schema-pay.js';
import { paymentProviders } from '../../db/schema-providers.js';
import { companyPreferences } from '../../db/schema-money-rules.js';
import {
  accounts,
  paymentRequestAllocations,
  paymentRequests,
  paymentTransactions,
  providerEvents,
  transactions,
} from '../../db/schema-receivables.js';
import type { ProviderExchange } from '../../providers/adapter.js';
import { v7 as uuidv7 } from 'uuid';
import { invoiceFactsColumns, invoiceFactsOf, type InvoiceFactsRow } from '../money-rules/index.js';
import { inTenant, sameDataset } from '../../platform/scope.js';

/**
 * A table's row as json inside a statement, with its numeric columns as text (json numbers would
 * round them); fromRowJson turns it back into the row drizzle's select would give.
 */
function rowJson(alias: string, table: PgTable): SQL {
  const numeric = Object.values(getTableColumns(table)).filter((c) => c.columnType === 'PgNumeric');
  const a = sql.raw(alias);
  if (numeric.length === 0) return sql`to_jsonb(${a})`;
  return sql`(to_jsonb(${a}) || jsonb_build_object(${sql.raw(
    numeric.map((c) => `'${c.name}', ${alias}.${c.name}::text`).join(', '),
  )}))`;
}

function fromRowJson<T extends PgTable>(
  table: T,
  json: Record<string, unknown>,
): T['$inferSelect'] {
  const row: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(getTableColumns(table))) {
    const value = json[column.name];
    row[field] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T['$inferSelect'];
}

const jsonOf = <T>(value: unknown, fallback: T): T =>
  value === null || value === undefined
    ? fallback
    : ((typeof value === 'string' ? JSON.parse(value) : value) as T);

/** The company a payment request belongs to: the pay calls learn it from the request's id. */
export interface PayScope {
  tenantId: string;
  datasetId: number;
}

export type PaymentRequestRow = typeof paymentRequests.$inferSelect;
export type PaymentRow = typeof paymentTransactions.$inferSelect;
export type ProviderRow = typeof paymentProviders.$inferSelect;

/** Statuses of a payment that took (or holds) the payer's money. */
export const takenStatuses = ['Paid', 'Pending'] as const;

/**
 * SQL of the payer page. The first lookup runs as the owner, before the tenant is
 * known (a request id is unique across tenants); everything after it runs in the tenant's scope.
 */
/** The payer page's one statement, with placeholders for the company and the request's id. */
function pageStatement(): SQL {
  const t = sql`${sql.placeholder('tenant')}::uuid`;
  const d = sql`${sql.placeholder('dataset')}::integer`;
  const id = sql`${sql.placeholder('request')}::uuid`;
  const allocated = sql`(select x.transaction_id from payment_request_allocations x
      where x.tenant_id = ${t} and x.dataset_id = ${d} and x.payment_request_id = ${id})`;
  // What this request's payments already put on the invoice (pay-page-answer.ts askedPart).
  const covered = sql`(select coalesce(sum(pa.allocated_amount + pa.discounted_amount), 0)::text
       from payment_allocations pa
       join payment_transactions p on p.tenant_id = pa.tenant_id and p.dataset_id = pa.dataset_id
         and p.id = pa.payment_transaction_id
       where pa.tenant_id = ${t} and pa.dataset_id = ${d} and pa.transaction_id = x.transaction_id
         and pa.status <> 'Cancelled' and p.payment_request_id = ${id})`;
  // "select " first: only such a text runs as a named statement, parsed and planned once per
  // connection (db/scoped-read.ts statementName); planning it costs more than running it.
  return sql`select (select ${rowJson('r', paymentRequests)} from payment_requests r
       where r.tenant_id = ${t} and r.dataset_id = ${d} and r.id = ${id}) as request,
    (select json_agg(${rowJson('p', paymentTransactions)} order by p.status_date_time desc, p.id desc)
       from payment_transactions p
       where p.tenant_id = ${t} and p.dataset_id = ${d} and p.payment_request_id = ${id}) as payments,
    (select json_agg(json_build_object('t', ${rowJson('i', transactions)},
         'amount', x.amount::text, 'covered', ${covered},
         'required', x.required, 'canEditAmount', x.can_edit_amount,
         'minimumAmount', x.minimum_amount::text, 'maximumAmount', x.maximum_amount::text)
         order by i.due_date asc nulls last, i.id asc)
       from payment_request_allocations x
       join transactions i on i.tenant_id = x.tenant_id and i.dataset_id = x.dataset_id
         and i.id = x.transaction_id
       where x.tenant_id = ${t} and x.dataset_id = ${d} and x.payment_request_id = ${id}) as invoices,
    (select json_build_object('editPaymentStatus', a.edit_payment_status,
         'editPaymentOverrideStatus', a.edit_payment_override_status)
       from accounts a where a.tenant_id = ${t} and a.dataset_id = ${d}
         and a.id = (select r.account_id from payment_requests r
           where r.tenant_id = ${t} and r.dataset_id = ${d} and r.id = ${id})) as account,
    (select c.default_edit_payment_status from company_preferences c
       where c.tenant_id = ${t} and c.dataset_id = ${d}) as company_default,
    ${invoiceFactsColumns(
      { tenantId: sql.placeholder('tenant'), datasetId: sql.placeholder('dataset') },
      sql`in (select i.account_id from transactions i
        where i.tenant_id = ${t} and i.dataset_id = ${d} and i.id in ${allocated})`,
      sql`in ${allocated}`,
    )}`;
}
let pageQuery: Query | undefined;

/** pageStatement's `covered` for the drizzle reads (invoices). */
function coveredOf(scope: PayScope, requestId: string, transactionId: SQL | PgColumnLike) {
  return sql<
    string | null
  >`(select coalesce(sum(pa.allocated_amount + pa.discounted_amount), 0)::text
    from payment_allocations pa
    join payment_transactions p on p.tenant_id = pa.tenant_id and p.dataset_id = pa.dataset_id
      and p.id = pa.payment_transaction_id
    where pa.tenant_id = ${scope.tenantId} and pa.dataset_id = ${scope.datasetId}
      and pa.transaction_id = ${transactionId} and pa.status <> 'Cancelled'
      and p.payment_request_id = ${requestId})`;
}
type PgColumnLike = typeof paymentRequestAllocations.transactionId;

export function createPayRepository(options: {
  /** Which configurations may be offered and paid with (payment-providers/provider-gates.ts). */
  offered: SQL;
}) {
  const scoped = <T extends { tenantId: unknown; datasetId: unknown }>(table: T, scope: PayScope) =>
    and(eq(table.tenantId as never, scope.tenantId), eq(table.datasetId as never, scope.datasetId));

  return {
    /**
     * A request by its id alone, with its company, or null: read as the owner, before the tenant is
     * known (a request id is unique across tenants). Only this row is read so.
     */
    async locate(db: Db, id: string): Promise<(PayScope & { request: PaymentRequestRow }) | null> {
      const [row] = await db.select().from(paymentRequests).where(eq(paymentRequests.id, id));
      return row ? { tenantId: row.tenantId, datasetId: row.datasetId, request: row } : null;
    },

    /** A provider configuration by its id alone, read as the owner before the tenant is known. */
    async locateConfiguration(db: Db, id: string): Promise<ProviderRow | null> {
      const [row] = await db.select().from(paymentProviders).where(eq(paymentProviders.id, id));
      return row ?? null;
    },

    /**
     * Whose a payment is, by its id alone (ids are unique across companies): for a platform-wide
     * provider's notification, which names our payment but not the company (provider-notices.ts).
     */
    async locatePaymentConfiguration(db: Db, paymentId: string) {
      const t = paymentTransactions;
      const [row] = await db
        .select({
          tenantId: t.tenantId,
          datasetId: t.datasetId,
          paymentProviderId: t.paymentProviderId,
        })
        .from(t)
        .where(eq(t.id, paymentId));
      return row ?? null;
    },

    async request(tx: Executor, scope: PayScope, id: string, forUpdate = false) {
      const query = tx
        .select()
        .from(paymentRequests)
        .where(and(scoped(paymentRequests, scope), eq(paymentRequests.id, id)));
      const [row] = forUpdate ? await query.for('update') : await query;
      return row ?? null;
    },

    /** The invoices a Transaction request pays, the one due first first. */
    async invoices(tx: Executor, scope: PayScope, requestId: string) {
      const x = paymentRequestAllocations;
      const rows = await tx
        .select({
          transaction: transactions,
          allocation: {
            amount: sql<string | null>`${x.amount}::text`,
            covered: coveredOf(scope, requestId, x.transactionId),
            required: x.required,
            canEditAmount: x.canEditAmount,
            minimumAmount: x.minimumAmount,
            maximumAmount: x.maximumAmount,
          },
        })
        .from(x)
        .innerJoin(
          transactions,
          and(sameDataset(transactions, x), eq(transactions.id, x.transactionId)),
        )
        .where(and(scoped(x, scope), eq(x.paymentRequestId, requestId)))
        .orderBy(sql`${transactions.dueDate} asc nulls last`, asc(transactions.id));
      return rows.map((row) => ({ ...row.transaction, allocation: row.allocation }));
    },

    /**
     * Everything the payer page reads of one request, in ONE statement (docs/decisions/079-the-payer-page-is-one-statement.md "The
     * payer page is one statement"): the request itself (null: not this company's), its payments (newest first), its invoices with their
     * allocations (the one due first first), the account's and company's edit settings, and the
     * invoices' account choices and manual offers for the money rules' quote. The same rows as
     * payments(), invoices(), editSettings() and readInvoiceFacts() give.
     */
    async pageState(tx: Executor, scope: PayScope, requestId: string) {
      // Built once: only the three values change (docs/decisions/079-the-payer-page-is-one-statement.md "The payer page is one statement").
      pageQuery ??= (tx as unknown as { dialect: PgDialect }).dialect.sqlToQuery(pageStatement());
      const { session } = tx as unknown as { session: PgSession };
      const result = await session
        .prepareQuery(pageQuery, undefined, undefined, false)
        .execute({ tenant: scope.tenantId, dataset: scope.datasetId, request: requestId });
      const row = (result as unknown as { rows: Record<string, unknown>[] }).rows[0] ?? {};
      type InvoiceJson = {
        t: Record<string, unknown>;
        amount: string | null;
        covered: string | null;
        required: boolean;
        canEditAmount: boolean;
        minimumAmount: string | null;
        maximumAmount: string | null;
      };
      const invoices = jsonOf<InvoiceJson[]>(row.invoices, []).map((item) => ({
        ...fromRowJson(transactions, item.t),
        allocation: {
          amount: item.amount,
          covered: item.covered,
          required: item.required,
          canEditAmount: item.canEditAmount,
          minimumAmount: item.minimumAmount,
          maximumAmount: item.maximumAmount,
        },
      }));
      const request = jsonOf<Record<string, unknown> | null>(row.request, null);
      return {
        request: request && fromRowJson(paymentRequests, request),
        payments: jsonOf<Record<string, unknown>[]>(row.payments, []).map((p) =>
          fromRowJson(paymentTransactions, p),
        ),
        invoices,
        editSettings: {
          account: jsonOf<{ editPaymentStatus: string; editPaymentOverrideStatus: string } | null>(
            row.account,
            null,
          ),
          companyDefault:
            (row.company_default as 'Allow' | 'Disable' | null | undefined) ?? 'Disable',
        },
        facts: invoiceFactsOf(row as unknown as InvoiceFactsRow),
      };
    },

    /** What decides whether the payer may edit amounts: the account's settings and the company's default. */
    async editSettings(tx: Executor, scope: PayScope, accountId: string | null) {
      const [account] = accountId
        ? await tx
            .select({
              editPaymentStatus: accounts.editPaymentStatus,
              editPaymentOverrideStatus: accounts.editPaymentOverrideStatus,
            })
            .from(accounts)
            .where(and(scoped(accounts, scope), eq(accounts.id, accountId)))
        : [];
      const [preferences] = await tx
        .select({ defaultEditPaymentStatus: companyPreferences.defaultEditPaymentStatus })
        .from(companyPreferences)
        .where(scoped(companyPreferences, scope));
      return {
        account: account ?? null,
        companyDefault: preferences?.defaultEditPaymentStatus ?? 'Disable',
      };
    },

    /** The request's payments that took or hold money, and the unfinished ones since `since`. */
    async payments(tx: Executor, scope: PayScope, requestId: string) {
      return tx
        .select()
        .from(paymentTransactions)
        .where(
          and(
            scoped(paymentTransactions, scope),
            eq(paymentTransactions.paymentRequestId, requestId),
          ),
        )
        .orderBy(desc(paymentTransactions.statusDateTime), desc(paymentTransactions.id));
    },

    async payment(
      tx: Executor,
      scope: PayScope,
      requestId: string,
      paymentId: string,
      forUpdate = false,
    ) {
      const query = tx
        .select()
        .from(paymentTransactions)
        .where(
          and(
            scoped(paymentTransactions, scope),
            eq(paymentTransactions.id, paymentId),
            eq(paymentTransactions.paymentRequestId, requestId),
          ),
        );
      const [row] = forUpdate ? await query.for('update') : await query;
      return row ?? null;
    },

    async quote(tx: Executor, scope: PayScope, paymentId: string) {
      const [row] = await tx
        .select()
        .from(payQuotes)
        .where(and(scoped(payQuotes, scope), eq(payQuotes.paymentTransactionId, paymentId)));
      return row ?? null;
    },

    /** The company details, whether there is a logo, and the company's name: one statement. */
    async company(tx: Executor, scope: PayScope) {
      const [row] = await tx
        .select({
          name: datasets.name,
          details: sql<unknown>`(select row_to_json(d) from ${companyDetails} d
            where d.tenant_id = ${scope.tenantId} and d.dataset_id = ${scope.datasetId})`,
          hasLogo: sql<boolean>`exists (select 1 from ${companyLogos} l
            where l.tenant_id = ${scope.tenantId} and l.dataset_id = ${scope.datasetId})`,
        })
        .from(datasets)
        .where(and(inTenant(datasets, scope), eq(datasets.id, scope.datasetId)));
      // row_to_json names the columns as in SQL.
      const d = (row?.details ?? null) as Record<string, string | null> | null;
      return {
        details: d && {
          name: d.name!,
          website: d.website ?? null,
          email: d.email!,
          telephone: d.telephone ?? null,
          address1: d.address1!,
          address2: d.address2 ?? null,
          city: d.city!,
          state: d.state!,
          postCode: d.post_code!,
          country: d.country!,
        },
        hasLogo: row?.hasLogo === true,
        datasetName: row?.name ?? null,
      };
    },

    async logo(tx: Executor, scope: PayScope) {
      const [logo] = await tx.select().from(companyLogos).where(scoped(companyLogos, scope));
      return logo ?? null;
    },

    /** The company's enabled provider configurations whose kind it may offer. */
    async enabledConfigurations(tx: Executor, scope: PayScope) {
      return tx
        .select()
        .from(paymentProviders)
        .where(
          and(scoped(paymentProviders, scope), eq(paymentProviders.enabled, true), options.offered),
        )
        .orderBy(
          desc(paymentProviders.isDefault),
          desc(paymentProviders.displayPriority),
          asc(paymentProviders.name),
        );
    },

    /**
     * A payment of one configuration by the provider's reference, with its sealed per-payment
     * secret (Opayo Server's SecurityKey): what a notification signed with that secret is checked
     * against (provider-notices.ts).
     */
    async paymentSecret(
      tx: Executor,
      scope: PayScope,
      configurationId: string,
      providerReference: string,
    ) {
      const t = paymentTransactions;
      const [row] = await tx
        .select({
          paymentTransactionId: t.id,
          paymentRequestId: t.paymentRequestId,
          ledgerlineReference: t.ledgerlineReference,
          sealed: payQuotes.providerSecret,
        })
        .from(t)
        .innerJoin(
          payQuotes,
          and(sameDataset(payQuotes, t), eq(payQuotes.paymentTransactionId, t.id)),
        )
        .where(
          and(
            scoped(t, scope),
            eq(t.paymentProviderId, configurationId),
            eq(t.paymentProviderReference, providerReference),
          ),
        );
      return row ?? null;
    },

    /** The sealed per-payment secret of a payment, or null (capture and cancel calls). */
    async sealedSecret(tx: Executor, scope: PayScope, paymentId: string) {
      const [row] = await tx
        .select({ sealed: payQuotes.providerSecret })
        .from(payQuotes)
        .where(and(scoped(payQuotes, scope), eq(payQuotes.paymentTransactionId, paymentId)));
      return row?.sealed ?? null;
    },

    async storeSecret(tx: Tx, scope: PayScope, paymentId: string, sealed: string) {
      await tx
        .update(payQuotes)
        .set({ providerSecret: sealed })
        .where(and(scoped(payQuotes, scope), eq(payQuotes.paymentTransactionId, paymentId)));
    },

    async insertPayment(tx: Tx, values: typeof paymentTransactions.$inferInsert) {
      await tx.insert(paymentTransactions).values(values);
    },

    async insertQuote(tx: Tx, values: typeof payQuotes.$inferInsert) {
      await tx.insert(payQuotes).values(values);
    },

    /**
     * Claims the right to ask the provider about a payment now: true at most once per
     * `seconds` per payment, across every API process.
     */
    async claimStatusCheck(tx: Tx, scope: PayScope, paymentId: string, seconds: number) {
      const rows = await tx
        .update(payQuotes)
        .set({ statusCheckedOn: sql`now()` })
        .where(
          and(
            scoped(payQuotes, scope),
            eq(payQuotes.paymentTransactionId, paymentId),
            sql`(${payQuotes.statusCheckedOn} is null or ${payQuotes.statusCheckedOn} < now() - make_interval(secs => ${seconds}))`,
          ),
        )
        .returning({ id: payQuotes.paymentTransactionId });
      return rows.length > 0;
    },

    /**
     * Claims a Processing payment for the one charge of its card ticket (step null → 'ticket') or
     * for the one answer of its 3-D Secure challenge ('challenge' → 'challengeAnswered'), so a
     * second post (or a concurrent one, which waits on the row) finds nothing to claim.
     */
    async claimTicket(
      tx: Tx,
      scope: PayScope,
      paymentId: string,
      from: 'ticket' | 'challenge' | null,
    ) {
      const t = paymentTransactions;
      const rows = await tx
        .update(t)
        .set({ providerStep: from === 'challenge' ? 'challengeAnswered' : 'ticket' })
        .where(
          and(
            scoped(t, scope),
            eq(t.id, paymentId),
            eq(t.status, 'Processing'),
            from === null ? isNull(t.providerStep) : eq(t.providerStep, from),
          ),
        )
        .returning({ id: t.id });
      return rows.length > 0;
    },

    /** The provider's reference of a started payment, and its step (a 3-D Secure challenge). */
    async recordProviderStart(
      tx: Tx,
      scope: PayScope,
      paymentId: string,
      providerReference: string | null,
      providerStep: 'challenge' | null = null,
    ) {
      await tx
        .update(paymentTransactions)
        .set({ paymentProviderReference: providerReference, providerStep })
        .where(and(scoped(paymentTransactions, scope), eq(paymentTransactions.id, paymentId)));
    },

    async recordEvent(
      tx: Tx,
      scope: PayScope,
      paymentId: string,
      providerName: string,
      exchange: ProviderExchange,
    ) {
      await tx.insert(providerEvents).values({
        ...scope,
        id: uuidv7(),
        paymentTransactionId: paymentId,
        providerName,
        ...exchange,
        payloadFileName: `${exchange.recordId ?? paymentId}.json`,
      });
    },

    async transactionsById(tx: Executor, scope: PayScope, ids: string[]) {
      if (ids.length === 0) return [];
      return tx
        .select()
        .from(transactions)
        .where(and(scoped(transactions, scope), inArray(transactions.id, ids)));
    },
  };
}
export type PayRepository = ReturnType<typeof createPayRepository>;
