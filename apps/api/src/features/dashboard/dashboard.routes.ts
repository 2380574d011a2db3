import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  dashboardFiguresQuery,
  dashboardFiguresSchema,
  dashboardTodoSchema,
  type TodoItem,
} from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import { accessKeys } from '../../db/schema.js';
import { companyDetails, companyLogos } from '../../db/schema-company.js';
import { paymentProviders } from '../../db/schema-providers.js';
import { requirePrincipal } from '../../platform/context.js';
import type { FeatureFlagStore } from '../../platform/feature-flags.js';
import { datasetScopeOf as scopeOf } from '../../platform/scope.js';
import { dashboardFigures } from '../reports/index.js';

/** spec 1 §2.4 to-do list, computed from the company's real state. */
async function todoItems(
  tx: Tx,
  scope: { tenantId: string; datasetId: number },
  newAccessKeyPage: boolean,
): Promise<TodoItem[]> {
  const kind = newAccessKeyPage ? 'access' : 'subscription';
  const [key] = await tx
    .select({ id: accessKeys.id })
    .from(accessKeys)
    .where(
      and(
        eq(accessKeys.tenantId, scope.tenantId),
        eq(accessKeys.kind, kind),
        isNull(accessKeys.deletedAt),
      ),
    )
    .limit(1);
  const [details] = await tx
    .select({ website: companyDetails.website })
    .from(companyDetails)
    .where(
      and(
        eq(companyDetails.tenantId, scope.tenantId),
        eq(companyDetails.datasetId, scope.datasetId),
      ),
    );
  const [logo] = await tx
    .select({ size: companyLogos.fileSize })
    .from(companyLogos)
    .where(
      and(eq(companyLogos.tenantId, scope.tenantId), eq(companyLogos.datasetId, scope.datasetId)),
    );

  // spec 3 §1: payments need a configured provider and a default one.
  const providers = await tx
    .select({ isDefault: paymentProviders.isDefault })
    .from(paymentProviders)
    .where(
      and(
        eq(paymentProviders.tenantId, scope.tenantId),
        eq(paymentProviders.datasetId, scope.datasetId),
      ),
    );

  const items: TodoItem[] = [];
  if (providers.length === 0) {
    items.push({
      id: 'payment-provider',
      severity: 'Critical',
      title: 'Configure a payment provider',
      message:
        'Your customers cannot pay until a card or bank payment provider is configured for this company.',
      url: '/settings/payment-providers',
      requiredPermissionToFix: 'ConfigurePaymentProvider',
    });
  } else if (!providers.some((provider) => provider.isDefault)) {
    items.push({
      id: 'default-payment-provider',
      severity: 'Critical',
      title: 'Choose a default payment provider',
      message:
        'Payments cannot be accepted until one of your payment providers is set as the default.',
      url: '/settings/payment-providers',
      requiredPermissionToFix: 'ConfigurePaymentProvider',
    });
  }
  if (!key) {
    items.push(
      newAccessKeyPage
        ? {
            id: 'access-keys',
            severity: 'Warning',
            title: 'Create an access key',
            message:
              'Your ERP connector needs an access key to send accounts and invoices to Ledgerline.',
            url: '/settings/access-keys',
            requiredPermissionToFix: 'ManageAccessKeys',
          }
        : {
            id: 'subscription-keys',
            severity: 'Warning',
            title: 'Create a subscription key',
            message:
              'Your ERP connector needs a subscription key to send accounts and invoices to Ledgerline.',
            url: '/settings/access-keys',
            requiredPermissionToFix: 'ManageSubscriptionKeys',
          },
    );
  }
  if (!details) {
    items.push({
      id: 'company-details',
      severity: 'Warning',
      title: 'Complete your company details',
      message:
        'Your company name, contact and address appear on payment pages and in the e-mails your customers receive.',
      url: '/settings/details',
      requiredPermissionToFix: 'ConfigureSystemSettings',
    });
  }
  if (!logo) {
    items.push({
      id: 'logo',
      severity: 'Informational',
      title: 'Upload your logo',
      message: 'Your logo is shown in the header and in every e-mail Ledgerline sends for you.',
      url: '/settings/customisation',
      requiredPermissionToFix: 'ConfigureSystemSettings',
    });
  }
  if (!details?.website) {
    items.push({
      id: 'website',
      severity: 'Informational',
      title: 'Add your website address',
      message: 'Customers can reach your website from the e-mails Ledgerline sends.',
      url: '/settings/details',
      requiredPermissionToFix: 'ConfigureSystemSettings',
    });
  }
  items.push(...(await moneyItems(tx, scope)));
  return items;
}

/**
 * Issue 19: money that needs staff now — a Single request paid twice (Duplicated: one click from
 * its refund), disputes still open at the provider, and reservations whose authorisation ends
 * within two days. One statement; the partial indexes on status and stage answer it.
 */
async function moneyItems(
  tx: Tx,
  scope: { tenantId: string; datasetId: number },
): Promise<TodoItem[]> {
  const result = await tx.execute(sql`
    select
      (select count(*)::int from payment_transactions
        where tenant_id = ${scope.tenantId} and dataset_id = ${scope.datasetId} and status = 'Duplicated') as duplicated,
      (select min(id::text) from payment_transactions
        where tenant_id = ${scope.tenantId} and dataset_id = ${scope.datasetId} and status = 'Duplicated') as "duplicatedId",
      (select count(*)::int from payment_disputes
        where tenant_id = ${scope.tenantId} and dataset_id = ${scope.datasetId} and stage in ('Opened', 'UnderReview')) as disputes,
      (select count(*)::int from payment_disputes
        where tenant_id = ${scope.tenantId} and dataset_id = ${scope.datasetId} and stage in ('Opened', 'UnderReview')
          and respond_by < now() + interval '3 days') as "disputesDue",
      (select count(*)::int from payment_transactions
        where tenant_id = ${scope.tenantId} and dataset_id = ${scope.datasetId} and status = 'Pending'
          and authorisation_expires_on < now() + interval '2 days') as expiring`);
  const [row] = (
    result as unknown as {
      rows: {
        duplicated: number;
        duplicatedId: string | null;
        disputes: number;
        disputesDue: number;
        expiring: number;
      }[];
    }
  ).rows;
  const items: TodoItem[] = [];
  if (!row) return items;
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  if (row.disputes > 0) {
    items.push({
      id: 'open-disputes',
      severity: row.disputesDue > 0 ? 'Critical' : 'Warning',
      title: `Answer ${plural(row.disputes, 'open dispute', 'open disputes')}`,
      message:
        row.disputesDue > 0
          ? `${plural(row.disputesDue, 'dispute must', 'disputes must')} be answered at the provider within three days, or the money goes back to the payer.`
          : 'A payer’s bank questions a payment: give the provider your evidence before the respond-by date.',
      url: '/disputes',
      requiredPermissionToFix: null,
    });
  }
  if (row.duplicated > 0) {
    items.push({
      id: 'duplicated-payments',
      severity: 'Warning',
      title: `Refund ${plural(row.duplicated, 'duplicated payment', 'duplicated payments')}`,
      message:
        'A request meant to be paid once was paid twice. The second payment is not allocated to any invoice: refund it to the payer.',
      url:
        row.duplicated === 1 && row.duplicatedId
          ? `/payment-transactions/${row.duplicatedId}`
          : '/payment-transactions',
      requiredPermissionToFix: 'RefundPayment',
    });
  }
  if (row.expiring > 0) {
    items.push({
      id: 'expiring-reservations',
      severity: 'Warning',
      title: `Capture or cancel ${plural(row.expiring, 'reservation', 'reservations')}`,
      message:
        'Their authorisation ends within two days: capture what you will take before then, or the reservation lapses and the invoices owe again.',
      url: '/payment-transactions/reservations',
      requiredPermissionToFix: 'CapturePendingPayment',
    });
  }
  return items;
}

/** spec 1 §2.4 `GET dashboard/to-do` (path not shown; docs/api.md). */
export async function dashboardRoutes(app: FastifyInstance, options: { flags: FeatureFlagStore }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v0/dashboard/to-do',
    {
      config: { access: 'dataset' },
      schema: {
        tags: ['dashboard'],
        summary: "The dashboard's to-do list for the company",
        description:
          'Each item names the permission needed to fix it; the site shows its Fix button only to who holds it.',
        response: { 200: dashboardTodoSchema },
      },
    },
    async (request) => {
      const { tenantId } = requirePrincipal(request.principal);
      const flags = await options.flags.all();
      const items = await request.tenantRead((tx) =>
        todoItems(tx, { tenantId, datasetId: request.datasetId! }, flags.NewAccessKeyPage === true),
      );
      return { items };
    },
  );

  r.get(
    '/api/v0/dashboard/figures',
    {
      config: { access: 'dataset' },
      schema: {
        tags: ['dashboard'],
        summary: "The dashboard's money figures: outstanding, overdue, DSO, failed, collected against falling due",
        description:
          'In `currency` (the company’s own by default), today (UTC): what the accounts owe and what of it is past ' +
          'due (the aged receivables’ totals on the DueDate basis), the invoices overdue, days sales outstanding ' +
          'by the countback method over at least twelve months, the payment attempts that failed (Failed, Rejected, ' +
          'NotAuthorised) in the period, and per calendar month of the last `months` (default 12) the money ' +
          'allocated (collected) and the invoices falling due.',
        querystring: dashboardFiguresQuery,
        response: { 200: dashboardFiguresSchema },
      },
    },
    // Issue 22 item 4, issue 23: the money figures, beside the spec's to-do list.
    async (request) =>
      request.tenantRead((tx) => dashboardFigures(tx, scopeOf(request), request.query)),
  );
}
