import type { TodoItem } from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import type { DatasetScope } from '../../platform/scope.js';
import {
  readMoneyCounts,
  readSetupState,
  type MoneyCounts,
  type SetupState,
} from './dashboard.repository.js';

/** spec 3 §1: payments need a configured provider and a default one. */
function providerItems(state: SetupState): TodoItem[] {
  if (state.providers.length === 0)
    return [
      {
        id: 'payment-provider',
        severity: 'Critical',
        title: 'Configure a payment provider',
        message:
          'Your customers cannot pay until a card or bank payment provider is configured for this company.',
        url: '/settings/payment-providers',
        requiredPermissionToFix: 'ConfigurePaymentProvider',
      },
    ];
  if (!state.providers.some((provider) => provider.isDefault))
    return [
      {
        id: 'default-payment-provider',
        severity: 'Critical',
        title: 'Choose a default payment provider',
        message:
          'Payments cannot be accepted until one of your payment providers is set as the default.',
        url: '/settings/payment-providers',
        requiredPermissionToFix: 'ConfigurePaymentProvider',
      },
    ];
  return [];
}

function keyItem(newAccessKeyPage: boolean): TodoItem {
  return newAccessKeyPage
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
      };
}

/** The company's own setup: details, logo and website (spec 1 §2.4). */
function companyItems(state: SetupState): TodoItem[] {
  const items: TodoItem[] = [];
  if (!state.details)
    items.push({
      id: 'company-details',
      severity: 'Warning',
      title: 'Complete your company details',
      message:
        'Your company name, contact and address appear on payment pages and in the e-mails your customers receive.',
      url: '/settings/details',
      requiredPermissionToFix: 'ConfigureSystemSettings',
    });
  if (!state.hasLogo)
    items.push({
      id: 'logo',
      severity: 'Informational',
      title: 'Upload your logo',
      message: 'Your logo is shown in the header and in every e-mail Ledgerline sends for you.',
      url: '/settings/customisation',
      requiredPermissionToFix: 'ConfigureSystemSettings',
    });
  if (!state.details?.website)
    items.push({
      id: 'website',
      severity: 'Informational',
      title: 'Add your website address',
      message: 'Customers can reach your website from the e-mails Ledgerline sends.',
      url: '/settings/details',
      requiredPermissionToFix: 'ConfigureSystemSettings',
    });
  return items;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Money that needs staff now: disputes to answer, a Single request paid twice (one click from
 * its refund), reservations whose authorisation ends soon.
 */
export function moneyItems(counts: MoneyCounts | null): TodoItem[] {
  const items: TodoItem[] = [];
  if (!counts) return items;
  if (counts.disputes > 0)
    items.push({
      id: 'open-disputes',
      severity: counts.disputesDue > 0 ? 'Critical' : 'Warning',
      title: `Answer ${plural(counts.disputes, 'open dispute', 'open disputes')}`,
      message:
        counts.disputesDue > 0
          ? `${plural(counts.disputesDue, 'dispute must', 'disputes must')} be answered at the provider within three days, or the money goes back to the payer.`
          : 'A payer’s bank questions a payment: give the provider your evidence before the respond-by date.',
      url: '/disputes',
      requiredPermissionToFix: null,
    });
  if (counts.duplicated > 0)
    items.push({
      id: 'duplicated-payments',
      severity: 'Warning',
      title: `Refund ${plural(counts.duplicated, 'duplicated payment', 'duplicated payments')}`,
      message:
        'A request meant to be paid once was paid twice. The second payment is not allocated to any invoice: refund it to the payer.',
      url:
        counts.duplicated === 1 && counts.duplicatedId
          ? `/payment-transactions/${counts.duplicatedId}`
          : '/payment-transactions',
      requiredPermissionToFix: 'RefundPayment',
    });
  if (counts.expiring > 0)
    items.push({
      id: 'expiring-reservations',
      severity: 'Warning',
      title: `Capture or cancel ${plural(counts.expiring, 'reservation', 'reservations')}`,
      message:
        'Their authorisation ends within two days: capture what you will take before then, or the reservation lapses and the invoices owe again.',
      url: '/payment-transactions/reservations',
      requiredPermissionToFix: 'CapturePendingPayment',
    });
  return items;
}

/** spec 1 §2.4 to-do list, computed from the company's real state, in the spec's order. */
export async function todoItems(
  tx: Tx,
  scope: DatasetScope,
  newAccessKeyPage: boolean,
): Promise<TodoItem[]> {
  const state = await readSetupState(tx, scope, newAccessKeyPage ? 'access' : 'subscription');
  return [
    ...providerItems(state),
    ...(state.hasKey ? [] : [keyItem(newAccessKeyPage)]),
    ...companyItems(state),
    ...moneyItems(await readMoneyCounts(tx, scope)),
  ];
}
