import apiKeysAndWebHooks from './guides/api-keys-and-web-hooks.md?raw';
import gettingStarted from './guides/getting-started.md?raw';
import invoicesAndAccounts from './guides/invoices-and-accounts.md?raw';
import paymentRequests from './guides/payment-requests.md?raw';
import paymentsAndRefunds from './guides/payments-and-refunds.md?raw';
import providers from './guides/providers.md?raw';
import settings from './guides/settings.md?raw';

/** spec 1 §2.2: the documentation the Help menu links to, one guide per area (/help/{slug}). */
export interface Guide {
  slug: string;
  title: string;
  summary: string;
  source: string;
}

export const guides: readonly Guide[] = [
  {
    slug: 'getting-started',
    title: 'Getting started',
    summary: 'Signing in, choosing a company, finding your way, roles.',
    source: gettingStarted,
  },
  {
    slug: 'payment-requests',
    title: 'Payment requests',
    summary: 'Asking customers to pay by link or QR code, and following the requests.',
    source: paymentRequests,
  },
  {
    slug: 'payments-and-refunds',
    title: 'Payments and refunds',
    summary:
      'Payment transactions, capture and cancel, allocated status, export, refunds and disputes.',
    source: paymentsAndRefunds,
  },
  {
    slug: 'invoices-and-accounts',
    title: 'Invoices and accounts',
    summary: 'Accounts, accounting transactions, settlement offers, documents and banks.',
    source: invoicesAndAccounts,
  },
  {
    slug: 'settings',
    title: 'Settings',
    summary: 'Company details, customisation, preferences, notifications, users and companies.',
    source: settings,
  },
  {
    slug: 'providers',
    title: 'Payment providers',
    summary: 'Setting up card and bank providers, the default provider, test mode.',
    source: providers,
  },
  {
    slug: 'api-keys-and-web-hooks',
    title: 'API keys and web hooks',
    summary: 'Access keys for your ERP connector, and web hooks to your own systems.',
    source: apiKeysAndWebHooks,
  },
];

export const guideOf = (slug: string | undefined) => guides.find((guide) => guide.slug === slug);
