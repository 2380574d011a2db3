import type { AreaRoute } from '@/shell/area-route';
import { accessKeysPermission } from '@/shell/menu';

/**
 * The registered screens. An area adds one entry per screen; its side-menu entry (shell/menu.ts)
 * appears once its path is here, e.g.
 *   { path: '/activities', title: ['Activities'], permission: 'ViewAuditLogs',
 *     page: () => import('@/features/activities/components/activities-page').then((m) => m.ActivitiesPage) },
 * Every page is a dynamic import, so it is a chunk of its own that loads when its route opens.
 */
export const areaRoutes: readonly AreaRoute[] = [
  {
    path: '/',
    title: ['Dashboard'],
    page: () => import('./routes/dashboard').then((m) => m.DashboardRoute),
  },
  {
    path: '/my-settings',
    title: ['My Settings'],
    page: () => import('./routes/my-settings').then((m) => m.MySettingsRoute),
  },
  {
    path: '/help',
    title: ['Help'],
    page: () => import('@/features/help/components/help-page').then((m) => m.HelpPage),
  },
  {
    path: '/help/:topic',
    title: ['Help', 'Guide'],
    page: () => import('@/features/help/components/help-page').then((m) => m.GuidePage),
  },
  {
    path: '/rd',
    title: ['Redirect'],
    page: () => import('./routes/redirect').then((m) => m.RedirectRoute),
  },
  {
    path: '/settings/users',
    title: ['Users'],
    permission: 'ConfigureSystemSettings',
    page: () => import('@/features/users/components/users-page').then((m) => m.UsersPage),
  },
  {
    path: '/settings/companies',
    title: ['Companies'],
    page: () =>
      import('@/features/datasets/components/companies-page').then((m) => m.CompaniesPage),
  },
  {
    path: '/settings/companies/:id',
    title: ['Companies', 'Company'],
    permission: 'EditCompanies',
    page: () =>
      import('@/features/datasets/components/company-detail-page').then((m) => m.CompanyDetailPage),
  },
  {
    path: '/settings/payment-providers',
    title: ['Payment Providers'],
    permission: { anyOf: ['ConfigurePaymentProvider', 'DeletePaymentProvider'] },
    fullWidth: true,
    page: () =>
      import('@/features/payment-providers/components/payment-providers-page').then(
        (m) => m.PaymentProvidersPage,
      ),
  },
  {
    // spec 1 §2.1: the provider choice (before the static path won, `new` was taken for an id).
    path: '/settings/payment-providers/new',
    title: ['Payment Providers', 'New Provider'],
    permission: 'ConfigurePaymentProvider',
    fullWidth: true,
    page: () =>
      import('@/features/payment-providers/components/payment-providers-page').then(
        (m) => m.NewPaymentProviderPage,
      ),
  },
  {
    path: '/settings/payment-providers/new/:type',
    title: ['Payment Providers', 'New Provider'],
    permission: 'ConfigurePaymentProvider',
    page: () =>
      import('@/features/payment-providers/components/provider-form-page').then(
        (m) => m.NewProviderPage,
      ),
  },
  // spec 3 §2: the provider return routes need no permission (the calls they make do).
  {
    path: '/stripe-connect/connect/oauth',
    title: ['Payment Providers', 'Stripe'],
    page: () =>
      import('@/features/payment-providers/components/provider-return-pages').then(
        (m) => m.StripeConnectReturnPage,
      ),
  },
  {
    path: '/gocardless/connect/oauth',
    title: ['Payment Providers', 'GoCardless'],
    page: () =>
      import('@/features/payment-providers/components/provider-return-pages').then(
        (m) => m.GoCardlessReturnPage,
      ),
  },
  {
    path: '/settings/payment-providers/:id',
    title: ['Payment Providers', 'Payment Provider'],
    permission: 'ConfigurePaymentProvider',
    page: () =>
      import('@/features/payment-providers/components/provider-form-page').then(
        (m) => m.EditProviderPage,
      ),
  },
  {
    // The aged receivables report.
    path: '/reports',
    title: ['Reports'],
    fullWidth: true,
    page: () => import('@/features/reports/components/reports-page').then((m) => m.ReportsPage),
  },
  {
    path: '/payment-plans',
    title: ['Payment Plans'],
    page: () => import('./routes/payment-plans').then((m) => m.PaymentPlansRoute),
  },
  {
    path: '/settings/details',
    title: ['Company Details'],
    page: () =>
      import('@/features/company-settings/components/company-details-page').then(
        (m) => m.CompanyDetailsPage,
      ),
  },
  {
    path: '/settings/customisation',
    title: ['Customisation'],
    permission: 'ConfigureSystemSettings',
    page: () =>
      import('@/features/company-settings/components/customisation-page').then(
        (m) => m.CustomisationPage,
      ),
  },
  {
    path: '/settings/preferences',
    title: ['Preferences'],
    permission: 'ConfigureSystemSettings',
    page: () =>
      import('@/features/company-settings/components/preferences-page').then(
        (m) => m.PreferencesPage,
      ),
  },
  {
    path: '/funding',
    title: ['Funding Search'],
    featureFlag: 'Capitalise',
    fullWidth: true,
    page: () => import('@/features/funding/components/funding-page').then((m) => m.FundingPage),
  },
  {
    // Reminder schedules, the daily run and its preview.
    path: '/settings/reminders',
    title: ['Reminder Schedules'],
    page: () =>
      import('@/features/reminders/components/reminder-schedules-page').then(
        (m) => m.ReminderSchedulesPage,
      ),
  },
  {
    path: '/settings/notifications',
    title: ['Notifications'],
    permission: 'ConfigureSystemSettings',
    page: () =>
      import('@/features/notifications/components/notifications-page').then(
        (m) => m.NotificationsPage,
      ),
  },
  {
    // spec 3 §2: no container (the Svix portal fills the page).
    path: '/settings/web-hooks',
    title: ['Web Hooks'],
    permission: 'ConfigureSystemSettings',
    fullWidth: true,
    page: () =>
      import('@/features/web-hooks/components/web-hooks-page').then((m) => m.WebHooksPage),
  },
  {
    path: '/settings/access-keys',
    title: ['Access Keys'],
    permission: accessKeysPermission,
    page: () =>
      import('@/features/access-keys/components/access-keys-page').then((m) => m.AccessKeysPage),
  },
  {
    path: '/payment-requests',
    title: ['Payment Requests'],
    fullWidth: true,
    page: () =>
      import('@/features/payment-requests/components/payment-requests-page').then(
        (m) => m.PaymentRequestsPage,
      ),
  },
  {
    path: '/payment-requests/:id',
    title: ['Payment Requests', 'Payment Request'],
    page: () =>
      import('@/features/payment-requests/components/payment-request-page').then(
        (m) => m.PaymentRequestPage,
      ),
  },
  {
    path: '/payment-transactions',
    title: ['Payment Transactions'],
    fullWidth: true,
    page: () =>
      import('@/features/payment-transactions/components/payment-transactions-page').then(
        (m) => m.PaymentTransactionsPage,
      ),
  },
  {
    path: '/payment-transactions/reservations',
    title: ['Payment Transactions', 'Reservations'],
    page: () =>
      import('@/features/payment-transactions/components/reservations-page').then(
        (m) => m.ReservationsPage,
      ),
  },
  {
    path: '/payment-transactions/:id',
    title: ['Payment Transactions', 'Payment Transaction'],
    page: () =>
      import('@/features/payment-transactions/components/payment-transaction-page').then(
        (m) => m.PaymentTransactionPage,
      ),
  },
  {
    path: '/disputes',
    title: ['Disputes'],
    fullWidth: true,
    page: () =>
      import('@/features/payment-transactions/components/disputes-page').then(
        (m) => m.DisputesPage,
      ),
  },
  {
    path: '/activities',
    title: ['Activities'],
    permission: 'ViewAuditLogs',
    fullWidth: true,
    page: () =>
      import('@/features/activities/components/activities-page').then((m) => m.ActivitiesPage),
  },
  {
    path: '/transactions',
    title: ['Transactions'],
    fullWidth: true,
    page: () =>
      import('@/features/transactions/components/transactions-page').then(
        (m) => m.TransactionsPage,
      ),
  },
  {
    path: '/transactions/:id',
    title: ['Transactions', 'Transaction'],
    page: () =>
      import('@/features/transactions/components/transaction-page').then((m) => m.TransactionPage),
  },
  {
    path: '/banks',
    title: ['Banks'],
    page: () => import('@/features/banks/components/banks-page').then((m) => m.BanksPage),
  },
  {
    path: '/banks/:id',
    title: ['Banks', 'Bank'],
    page: () =>
      import('@/features/banks/components/bank-detail-page').then((m) => m.BankDetailPage),
  },
  {
    path: '/accounts',
    title: ['Accounts'],
    page: () => import('@/features/accounts/components/accounts-page').then((m) => m.AccountsPage),
  },
  {
    path: '/accounts/:id',
    title: ['Accounts', 'Account'],
    page: () => import('@/features/accounts/components/account-page').then((m) => m.AccountPage),
  },
  {
    path: '/payers',
    title: ['Payers'],
    page: () => import('@/features/accounts/components/payers-page').then((m) => m.PayersPage),
  },
  {
    path: '/accounts/:accountId/payers/:id',
    title: ['Accounts', 'Payer'],
    page: () => import('@/features/accounts/components/payer-page').then((m) => m.PayerPage),
  },
  // spec 3 §2 settlements (spec 1's menu names the list /settlement-configurations: both show it).
  {
    path: '/settlements',
    title: ['Settlements'],
    page: () =>
      import('@/features/settlements/components/settlements-page').then((m) => m.SettlementsPage),
  },
  {
    path: '/settlement-configurations',
    title: ['Settlements'],
    page: () =>
      import('@/features/settlements/components/settlements-page').then((m) => m.SettlementsPage),
  },
  {
    path: '/settlements/new',
    title: ['Settlements', 'New Settlement Group'],
    permission: 'CreateSettlementConfigurations',
    page: () =>
      import('@/features/settlements/components/settlement-group-create-page').then(
        (m) => m.SettlementGroupCreatePage,
      ),
  },
  {
    path: '/settlements/:id',
    title: ['Settlements', 'Settlement Group'],
    page: () =>
      import('@/features/settlements/components/settlement-group-page').then(
        (m) => m.SettlementGroupPage,
      ),
  },
  {
    path: '/late-payments',
    title: ['Late Payments'],
    fullWidth: true,
    page: () =>
      import('@/features/late-payments/components/late-payments-page').then(
        (m) => m.LatePaymentsPage,
      ),
  },
];
