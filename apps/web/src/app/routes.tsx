import { AccessKeysPage } from '@/features/access-keys/components/access-keys-page';
import { AccountPage } from '@/features/accounts/components/account-page';
import { AccountsPage } from '@/features/accounts/components/accounts-page';
import { PayerPage } from '@/features/accounts/components/payer-page';
import { ActivitiesPage } from '@/features/activities/components/activities-page';
import { BankDetailPage } from '@/features/banks/components/bank-detail-page';
import { BanksPage } from '@/features/banks/components/banks-page';
import { PaymentRequestPage } from '@/features/payment-requests/components/payment-request-page';
import { PaymentRequestsPage } from '@/features/payment-requests/components/payment-requests-page';
import { PaymentTransactionPage } from '@/features/payment-transactions/components/payment-transaction-page';
import { PaymentTransactionsPage } from '@/features/payment-transactions/components/payment-transactions-page';
import { CompanyDetailsPage } from '@/features/company-settings/components/company-details-page';
import { CustomisationPage } from '@/features/company-settings/components/customisation-page';
import { NotificationsPage } from '@/features/notifications/components/notifications-page';
import { CompaniesPage } from '@/features/datasets/components/companies-page';
import { TransactionPage } from '@/features/transactions/components/transaction-page';
import { TransactionsPage } from '@/features/transactions/components/transactions-page';
import { UsersPage } from '@/features/users/components/users-page';
import type { AreaRoute } from '@/shell/area-route';
import { accessKeysPermission } from '@/shell/menu';
import { DashboardRoute } from './routes/dashboard';
import { MySettingsRoute } from './routes/my-settings';
import { RedirectRoute } from './routes/redirect';

/**
 * The registered screens. An area adds one entry per screen; its side-menu entry (shell/menu.ts)
 * appears once its path is here, e.g.
 *   { path: '/activities', title: ['Activities'], permission: 'ViewAuditLogs', element: <ActivitiesRoute /> },
 */
export const areaRoutes: readonly AreaRoute[] = [
  { path: '/', title: ['Dashboard'], element: <DashboardRoute /> },
  { path: '/my-settings', title: ['My Settings'], element: <MySettingsRoute /> },
  { path: '/rd', title: ['Redirect'], element: <RedirectRoute /> },
  {
    path: '/settings/users',
    title: ['Users'],
    permission: 'ConfigureSystemSettings',
    element: <UsersPage />,
  },
  { path: '/settings/companies', title: ['Companies'], element: <CompaniesPage /> },
  { path: '/settings/details', title: ['Company Details'], element: <CompanyDetailsPage /> },
  {
    path: '/settings/customisation',
    title: ['Customisation'],
    permission: 'ConfigureSystemSettings',
    element: <CustomisationPage />,
  },
  {
    path: '/settings/notifications',
    title: ['Notifications'],
    permission: 'ConfigureSystemSettings',
    element: <NotificationsPage />,
  },
  {
    path: '/settings/access-keys',
    title: ['Access Keys'],
    permission: accessKeysPermission,
    element: <AccessKeysPage />,
  },
  {
    path: '/payment-requests',
    title: ['Payment Requests'],
    fullWidth: true,
    element: <PaymentRequestsPage />,
  },
  {
    path: '/payment-requests/:id',
    title: ['Payment Requests', 'Payment Request'],
    element: <PaymentRequestPage />,
  },
  {
    path: '/payment-transactions',
    title: ['Payment Transactions'],
    fullWidth: true,
    element: <PaymentTransactionsPage />,
  },
  {
    path: '/payment-transactions/:id',
    title: ['Payment Transactions', 'Payment Transaction'],
    element: <PaymentTransactionPage />,
  },
  {
    path: '/activities',
    title: ['Activities'],
    permission: 'ViewAuditLogs',
    fullWidth: true,
    element: <ActivitiesPage />,
  },
  {
    path: '/transactions',
    title: ['Transactions'],
    fullWidth: true,
    element: <TransactionsPage />,
  },
  {
    path: '/transactions/:id',
    title: ['Transactions', 'Transaction'],
    element: <TransactionPage />,
  },
  { path: '/banks', title: ['Banks'], element: <BanksPage /> },
  { path: '/banks/:id', title: ['Banks', 'Bank'], element: <BankDetailPage /> },
  { path: '/accounts', title: ['Accounts'], element: <AccountsPage /> },
  { path: '/accounts/:id', title: ['Accounts', 'Account'], element: <AccountPage /> },
  { path: '/accounts/:accountId/payers/:id', title: ['Accounts', 'Payer'], element: <PayerPage /> },
];
