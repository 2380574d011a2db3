import { and, count, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dashboardTodoSchema, type TodoItem } from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import { accessKeys } from '../../db/schema.js';
import { companyDetails, companyLogos } from '../../db/schema-company.js';
import { paymentProviders } from '../../db/schema-providers.js';
import { paymentTransactions } from '../../db/schema-receivables.js';
import { requirePrincipal } from '../../platform/context.js';
import type { FeatureFlagStore } from '../../platform/feature-flags.js';

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
      fixPath: '/settings/payment-providers',
      permission: 'ConfigurePaymentProvider',
    });
  } else if (!providers.some((provider) => provider.isDefault)) {
    items.push({
      id: 'default-payment-provider',
      severity: 'Critical',
      title: 'Choose a default payment provider',
      message:
        'Payments cannot be accepted until one of your payment providers is set as the default.',
      fixPath: '/settings/payment-providers',
      permission: 'ConfigurePaymentProvider',
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
            fixPath: '/settings/access-keys',
            permission: 'ManageAccessKeys',
          }
        : {
            id: 'subscription-keys',
            severity: 'Warning',
            title: 'Create a subscription key',
            message:
              'Your ERP connector needs a subscription key to send accounts and invoices to Ledgerline.',
            fixPath: '/settings/access-keys',
            permission: 'ManageSubscriptionKeys',
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
      fixPath: '/settings/details',
      permission: 'ConfigureSystemSettings',
    });
  }
  if (!logo) {
    items.push({
      id: 'logo',
      severity: 'Informational',
      title: 'Upload your logo',
      message: 'Your logo is shown in the header and in every e-mail Ledgerline sends for you.',
      fixPath: '/settings/customisation',
      permission: 'ConfigureSystemSettings',
    });
  }
  // Issue 19: a second payment of a Single request is Duplicated and allocated to nothing; the
  // merchant gives it back (status index: one index-only count).
  const [duplicated] = await tx
    .select({ n: count() })
    .from(paymentTransactions)
    .where(
      and(
        eq(paymentTransactions.tenantId, scope.tenantId),
        eq(paymentTransactions.datasetId, scope.datasetId),
        eq(paymentTransactions.status, 'Duplicated'),
      ),
    );
  const duplicates = duplicated?.n ?? 0;
  if (duplicates > 0) {
    items.push({
      id: 'duplicated-payments',
      severity: 'Warning',
      title:
        duplicates === 1 ? 'A payment was taken twice' : `${duplicates} payments were taken twice`,
      message:
        'A request that could be paid once was paid again. The second payment is Duplicated and allocated to nothing: refund it.',
      fixPath: '/payment-transactions',
      permission: null,
    });
  }
  if (!details?.website) {
    items.push({
      id: 'website',
      severity: 'Informational',
      title: 'Add your website address',
      message: 'Customers can reach your website from the e-mails Ledgerline sends.',
      fixPath: '/settings/details',
      permission: 'ConfigureSystemSettings',
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
}
