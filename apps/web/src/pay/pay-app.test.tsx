import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { pollTiming, stillWaitingMessage } from './components/payment-outcome';
import { PayApp } from './pay-app';
import {
  openTransactionPage,
  paymentId,
  paymentStatus,
  receipt,
  recordingBrowser,
  requestId,
  sandboxMethodId,
  stripeMethodId,
} from './test-support';

const pagePath = `GET /pay/${requestId}`;
const startPath = `POST /pay/${requestId}/payments`;
const statusPath = `GET /pay/${requestId}/payments/${paymentId}`;
const sandboxPath = `POST /pay/${requestId}/payments/${paymentId}/sandbox`;

function renderPage(query: Record<string, string> = {}, browser = recordingBrowser()) {
  render(<PayApp requestId={requestId} query={query} browser={browser} />);
  return browser;
}

const started = (next: unknown) => ({
  body: { paymentId, amount: 1556.22, currency: 'GBP', next },
});

async function fillPayer(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('First names'), 'Ada');
  await user.type(screen.getByLabelText('Surname'), 'Lovelace');
  await user.type(screen.getByLabelText(/Email address/), 'ada@example.com');
}

const savedTiming = { ...pollTiming };
beforeEach(() => {
  Object.assign(pollTiming, { firstDelayMs: 20, maxDelayMs: 40, giveUpAfterMs: 2000 });
});
afterEach(() => {
  Object.assign(pollTiming, savedTiming);
});

describe('the payer page: what the request asks for', () => {
  it('shows an Open Transaction request: company, invoices, discount, late fees and the total', async () => {
    stubFetch({ [pagePath]: { body: openTransactionPage() } });
    renderPage();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Pay Northwind Trading' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Test mode: no real money moves.')).toBeInTheDocument();
    expect(screen.getAllByText('Northwind Trading')[0]).toBeInTheDocument();
    expect(screen.getByText('PR-1042')).toBeInTheDocument();
    expect(screen.getByText('November invoices')).toBeInTheDocument();

    const invoices = within(screen.getByRole('list', { name: 'Invoices' })).getAllByRole(
      'listitem',
    );
    expect(invoices).toHaveLength(2);
    const [discounted, late] = invoices as [HTMLElement, HTMLElement];
    expect(within(discounted).getByText('Invoice INV-001')).toBeInTheDocument();
    expect(within(discounted).getByText('£1,000.00')).toBeInTheDocument();
    expect(
      within(discounted).getByText('Early-payment discount if paid today'),
    ).toBeInTheDocument();
    expect(within(discounted).getByText('−£20.00')).toBeInTheDocument();
    expect(
      within(discounted).getByText(/Pay by 30 November 2026 to keep the discount of £20.00/),
    ).toBeInTheDocument();
    expect(
      within(late).getByText('Statutory interest (12.00% a year, 54 days)'),
    ).toBeInTheDocument();
    expect(within(late).getByText('+£6.22')).toBeInTheDocument();
    expect(within(late).getByText('Fixed sum for late payment')).toBeInTheDocument();
    expect(within(late).getByText('+£70.00')).toBeInTheDocument();
    expect(
      within(late).getByText('This invoice was due on 1 October 2026 and is 54 days late.'),
    ).toBeInTheDocument();
    expect(within(late).getByText('£576.22')).toBeInTheDocument();
    expect(screen.getByText('Total to pay').nextElementSibling).toHaveTextContent('£1,556.22');
    expect(screen.getByText('Amounts as of 24 November 2026.')).toBeInTheDocument();
    // The company's details for the payer.
    expect(screen.getByText('1 Quay Street')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'accounts@northwind.example' })).toHaveAttribute(
      'href',
      'mailto:accounts@northwind.example',
    );
  });

  it('groups the methods as Card, Bank transfer, Direct debit with the default first and chosen', async () => {
    stubFetch({ [pagePath]: { body: openTransactionPage() } });
    renderPage();
    const methods = await screen.findByRole('group', { name: 'How would you like to pay?' });
    const groups = within(methods).getAllByRole('group');
    expect(groups.map((group) => group.getAttribute('aria-labelledby'))).toEqual([
      'group-Card',
      'group-BankDebit',
    ]);
    const radios = within(methods).getAllByRole('radio');
    expect(radios.map((radio) => (radio as HTMLInputElement).value)).toEqual([
      sandboxMethodId,
      stripeMethodId,
      expect.any(String),
    ]);
    expect(screen.getByRole('radio', { name: /Sandbox card/ })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Pay £1,556.22' })).toBeInTheDocument();
  });

  it('says when the company cannot take payments online, with its contact details', async () => {
    stubFetch({ [pagePath]: { body: openTransactionPage({ methods: [] }) } });
    renderPage();
    expect(
      await screen.findByRole('heading', { name: 'This company cannot take payments online yet.' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Pay/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: '020 7946 0000' })).toHaveAttribute(
      'href',
      'tel:02079460000',
    );
  });

  it('shows a Completed request as paid, with the receipt', async () => {
    stubFetch({
      [pagePath]: {
        body: openTransactionPage({
          state: 'Completed',
          amountToPay: 0,
          paidAmount: 1556.22,
          receipt,
        }),
      },
    });
    renderPage();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Paid, thank you' }),
    ).toBeInTheDocument();
    const receiptSection = screen.getByRole('region', { name: 'Receipt' });
    expect(within(receiptSection).getByText('PAY-000123')).toBeInTheDocument();
    expect(within(receiptSection).getByText('£1,556.22')).toBeInTheDocument();
    expect(within(receiptSection).getByText(/24 November 2026/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Pay/ })).not.toBeInTheDocument();
  });

  it('shows what is left of a PartCompleted request and lets the payer pay the rest', async () => {
    stubFetch({
      [pagePath]: {
        body: openTransactionPage({
          state: 'PartCompleted',
          usageType: 'Multiple',
          paidAmount: 1000,
          amountToPay: 556.22,
          receipt: { ...receipt, amount: 1000 },
          validUntil: '2026-12-31T23:00:00Z',
          paymentRequiredBy: '2026-12-15',
        }),
      },
    });
    renderPage();
    expect(
      await screen.findByRole('heading', { level: 1, name: '£556.22 left to pay' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText('£1,000.00 has been paid so far. You can pay the rest below.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Left to pay').nextElementSibling).toHaveTextContent('£556.22');
    expect(screen.getByRole('button', { name: 'Pay £556.22' })).toBeInTheDocument();
    expect(screen.getByText('Pay by').nextElementSibling).toHaveTextContent('15 December 2026');
    expect(screen.getByText('Link valid until').nextElementSibling).toHaveTextContent(
      /December 2026|January 2027/,
    );
  });

  it('shows a Cancelled request with nothing to pay', async () => {
    stubFetch({ [pagePath]: { body: openTransactionPage({ state: 'Cancelled' }) } });
    renderPage();
    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: 'This payment request has been cancelled',
      }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Pay/ })).not.toBeInTheDocument();
  });

  it('shows the same expired page for an expired request and an id that does not exist', async () => {
    stubFetch({ [pagePath]: { body: { state: 'Expired' } } });
    renderPage();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This payment link has expired' }),
    ).toBeInTheDocument();
    expect(screen.queryByText('Northwind Trading')).not.toBeInTheDocument();
  });

  it('shows the answer that came with the page at once, without asking for it', async () => {
    const calls = stubFetch({});
    const page = openTransactionPage();
    render(
      <PayApp requestId={requestId} query={{}} browser={recordingBrowser()} firstAnswer={page} />,
    );
    // The first render is the request, not "Loading…": the server's first screen stays as it is.
    expect(screen.getByRole('heading', { level: 1, name: 'Pay Northwind Trading' })).toBeVisible();
    expect(screen.queryByText('Loading your payment request…')).not.toBeInTheDocument();
    expect(screen.getByText('PR-1042')).toBeInTheDocument();
    expect(await screen.findByLabelText('First names')).toBeInTheDocument();
    expect(calls.filter((call) => call.url === `/api/v0/pay/${requestId}`)).toEqual([]);
  });

  it('shows the expired page for a link the API refuses or does not know', async () => {
    for (const status of [400, 404]) {
      stubFetch({
        [pagePath]: { status, body: { type: 'about:blank', title: 'Not Found', status } },
      });
      const { unmount } = render(
        <PayApp requestId={requestId} query={{}} browser={recordingBrowser()} />,
      );
      expect(
        await screen.findByRole('heading', { level: 1, name: 'This payment link has expired' }),
      ).toBeInTheDocument();
      unmount();
    }
  });

  it('says when the server cannot be reached, and tries again', async () => {
    let fail = true;
    stubFetch({
      [pagePath]: () =>
        fail
          ? { status: 503, body: { title: 'Service Unavailable', status: 503 } }
          : { body: openTransactionPage() },
    });
    renderPage();
    expect(
      await screen.findByRole('heading', { name: 'We could not load this payment request' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Something went wrong on our side. Please try again.',
    );
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Pay Northwind Trading' }),
    ).toBeInTheDocument();
  });
});

describe('the payer page: the payment form', () => {
  it('checks the payer details, says what is wrong and focuses the first error', async () => {
    const calls = stubFetch({ [pagePath]: { body: openTransactionPage() } });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Pay £1,556.22' }));
    expect(await screen.findByText('Enter your first names')).toBeInTheDocument();
    expect(screen.getByText('Enter your surname')).toBeInTheDocument();
    expect(screen.getByText('Enter your email address for the receipt')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('First names')).toHaveFocus());
    expect(screen.getByLabelText('First names')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('First names')).toHaveAccessibleDescription(
      'Enter your first names',
    );

    await fillPayer(user);
    await user.clear(screen.getByLabelText(/Email address/));
    await user.type(screen.getByLabelText(/Email address/), 'ada@example');
    await user.click(screen.getByRole('button', { name: 'Pay £1,556.22' }));
    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText(/Email address/)).toHaveFocus());
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('lets an Account request be paid in part, within its bounds', async () => {
    const calls = stubFetch({
      [pagePath]: {
        body: openTransactionPage({
          requestType: 'Account',
          invoices: [],
          discountTotal: 0,
          feeTotal: 0,
          amountToPay: 800,
          partPayment: { minimumAmount: 100, maximumAmount: 800 },
        }),
      },
      [startPath]: started({
        kind: 'redirect',
        url: 'https://checkout.stripe.com/c/pay/cs_test_1',
      }),
    });
    const browser = renderPage();
    const user = userEvent.setup();
    const amount = await screen.findByLabelText('Amount to pay (GBP)');
    expect(amount).toHaveValue('800.00');
    expect(amount).toHaveAccessibleDescription('You can pay part: between £100.00 and £800.00.');
    await fillPayer(user);
    for (const [typed, message] of [
      ['900', 'Enter no more than £800.00'],
      ['50', 'Enter at least £100.00'],
      ['abc', 'Amount must be a number'],
      ['0', 'Amount must be greater than 0'],
      ['120.555', 'Enter the amount with at most 2 decimal places'],
    ]) {
      await user.clear(amount);
      await user.type(amount, typed!);
      await user.click(screen.getByRole('button', { name: /^Pay/ }));
      expect(await screen.findByText(message!)).toBeInTheDocument();
      await waitFor(() => expect(amount).toHaveFocus());
    }
    await user.clear(amount);
    await user.type(amount, '250.50');
    await user.click(screen.getByRole('radio', { name: /Card with Stripe/ }));
    await user.click(screen.getByRole('button', { name: 'Pay £250.50' }));
    await waitFor(() =>
      expect(browser.goTo).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_1'),
    );
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      configurationId: stripeMethodId,
      amount: 250.5,
      payer: { firstNames: 'Ada', surname: 'Lovelace', emailAddress: 'ada@example.com' },
    });
    // Leaving for Stripe: the button waits; Back from Stripe (the back-forward cache) frees it.
    expect(screen.getByRole('button', { name: 'Starting your payment…' })).toBeDisabled();
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    expect(await screen.findByRole('button', { name: 'Pay £250.50' })).toBeEnabled();
  });

  it('never sends an amount for a request that cannot be paid in part', async () => {
    const calls = stubFetch({
      [pagePath]: { body: openTransactionPage() },
      [startPath]: started({
        kind: 'post',
        url: 'https://sandbox.opayo.eu.elavon.com/gateway/service/vspform-register.vsp',
        fields: { VPSProtocol: '4.00', Crypt: '@abc' },
      }),
    });
    const browser = renderPage();
    const user = userEvent.setup();
    await screen.findByRole('button', { name: /^Pay/ });
    expect(screen.queryByLabelText(/Amount to pay/)).not.toBeInTheDocument();
    await fillPayer(user);
    await user.click(screen.getByRole('button', { name: 'Pay £1,556.22' }));
    await waitFor(() =>
      expect(browser.postTo).toHaveBeenCalledWith(
        'https://sandbox.opayo.eu.elavon.com/gateway/service/vspform-register.vsp',
        { VPSProtocol: '4.00', Crypt: '@abc' },
      ),
    );
    expect(calls.find((call) => call.method === 'POST')?.body).not.toHaveProperty('amount');
  });

  it('shows the server’s field messages and a 429 in words', async () => {
    let answer: { status: number; body: unknown } = {
      status: 400,
      body: {
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        detail: 'One or more fields are invalid.',
        errors: { 'payer.surname': ['Surname is too long'] },
      },
    };
    stubFetch({ [pagePath]: { body: openTransactionPage() }, [startPath]: () => answer });
    renderPage();
    const user = userEvent.setup();
    await screen.findByRole('button', { name: /^Pay/ });
    await fillPayer(user);
    await user.click(screen.getByRole('button', { name: 'Pay £1,556.22' }));
    expect(await screen.findByText('Surname is too long')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('One or more fields are invalid.');
    await waitFor(() => expect(screen.getByLabelText('Surname')).toHaveFocus());

    answer = { status: 429, body: { title: 'Too Many Requests', status: 429 } };
    await user.click(screen.getByRole('button', { name: 'Pay £1,556.22' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Too many attempts, try again in a minute.',
      ),
    );
  });

  it('keeps the OPPWA checkout for the reload that shows the widget', async () => {
    const next = {
      kind: 'oppwa',
      checkoutId: 'CHK123.uat01-vm-tx04',
      scriptUrl: 'https://eu-test.oppwa.com/v1/paymentWidgets.js?checkoutId=CHK123.uat01-vm-tx04',
      brands: 'VISA MASTER AMEX',
      shopperResultUrl: `http://localhost/pay/${requestId}?payment=${paymentId}`,
    };
    stubFetch({ [pagePath]: { body: openTransactionPage() }, [startPath]: started(next) });
    const browser = renderPage();
    const user = userEvent.setup();
    await screen.findByRole('button', { name: /^Pay/ });
    await fillPayer(user);
    await user.click(screen.getByRole('button', { name: 'Pay £1,556.22' }));
    await waitFor(() =>
      expect(browser.goTo).toHaveBeenCalledWith(`/pay/${requestId}?checkout=${paymentId}`),
    );
    expect(JSON.parse(window.sessionStorage.getItem(`ledgerline.pay.oppwa.${paymentId}`)!)).toEqual(
      next,
    );
  });

  it('draws the OPPWA widget form and loads its script on the widget’s load', async () => {
    const next = {
      kind: 'oppwa',
      checkoutId: 'CHK123',
      scriptUrl: 'https://eu-test.oppwa.com/v1/paymentWidgets.js?checkoutId=CHK123',
      brands: 'VISA MASTER',
      shopperResultUrl: `http://localhost/pay/${requestId}?payment=${paymentId}`,
    };
    window.sessionStorage.setItem(`ledgerline.pay.oppwa.${paymentId}`, JSON.stringify(next));
    stubFetch({ [pagePath]: { body: openTransactionPage() } });
    renderPage({ checkout: paymentId });
    expect(await screen.findByRole('heading', { name: 'Card details' })).toHaveFocus();
    const form = document.querySelector('form.paymentWidgets');
    expect(form).toHaveAttribute('action', next.shopperResultUrl);
    expect(form).toHaveAttribute('data-brands', 'VISA MASTER');
    expect(document.head.querySelector(`script[src="${next.scriptUrl}"]`)).not.toBeNull();
  });
});

describe('the payer page: the Sandbox card and the outcome', () => {
  async function startSandbox(routes: Parameters<typeof stubFetch>[0] = {}) {
    const calls = stubFetch({
      [pagePath]: { body: openTransactionPage() },
      [startPath]: started({ kind: 'sandbox' }),
      ...routes,
    });
    const browser = renderPage();
    const user = userEvent.setup();
    await screen.findByRole('button', { name: /^Pay/ });
    await fillPayer(user);
    await user.click(screen.getByRole('button', { name: 'Pay £1,556.22' }));
    expect(await screen.findByRole('heading', { name: 'Card details' })).toHaveFocus();
    return { calls, browser, user };
  }

  async function fillCard(user: ReturnType<typeof userEvent.setup>, cardNumber: string) {
    await user.type(screen.getByLabelText('Name on card'), 'Ada Lovelace');
    await user.type(screen.getByLabelText('Card number'), cardNumber);
    await user.type(screen.getByLabelText(/Expiry date/), '12/30');
    await user.type(screen.getByLabelText(/Security code/), '123');
  }

  it('lists the test cards and checks the card form with the contract’s messages', async () => {
    const { user, calls } = await startSandbox();
    expect(screen.getByText('4242 4242 4242 4242')).toBeInTheDocument();
    expect(screen.getByText('4000 0000 0000 0002')).toBeInTheDocument();
    expect(screen.getByText('4000 0000 0000 3220')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Pay £1,556.22' }));
    expect(await screen.findByText('Enter the name on the card')).toBeInTheDocument();
    expect(screen.getByText('Enter a card number of 12 to 19 digits')).toBeInTheDocument();
    expect(screen.getByText('Enter the expiry as MM/YY')).toBeInTheDocument();
    expect(screen.getByText('Enter the 3 or 4 digit security code')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Name on card')).toHaveFocus());
    expect(calls.filter((call) => call.url.endsWith('/sandbox'))).toHaveLength(0);
  });

  it('pays with the success card and says so, focusing the outcome, with the receipt', async () => {
    const { user, calls, browser } = await startSandbox({
      [sandboxPath]: { body: paymentStatus({ status: 'Paid', outcome: 'Succeeded', receipt }) },
    });
    await fillCard(user, '4242 4242 4242 4242');
    await user.click(screen.getByRole('button', { name: 'Pay £1,556.22' }));
    expect(
      await screen.findByRole('heading', { name: 'Payment successful, thank you' }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'Payment successful, thank you' })).toHaveFocus(),
    );
    expect(screen.getByText('PAY-000123')).toBeInTheDocument();
    expect(browser.replaceQuery).toHaveBeenCalledWith({ payment: paymentId });
    expect(calls.find((call) => call.url.endsWith('/sandbox'))?.body).toEqual({
      cardholderName: 'Ada Lovelace',
      cardNumber: '4242424242424242',
      expiry: '12/30',
      cvc: '123',
    });
  });

  it('shows a declined card’s message and lets the payer pay again', async () => {
    const { user } = await startSandbox({
      [sandboxPath]: {
        body: paymentStatus({
          status: 'Failed',
          outcome: 'Failed',
          message: 'Your card was declined',
        }),
      },
    });
    await fillCard(user, '4000000000000002');
    await user.click(screen.getByRole('button', { name: 'Pay £1,556.22' }));
    expect(await screen.findByRole('heading', { name: 'Payment failed' })).toBeInTheDocument();
    expect(screen.getByText('Your card was declined')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Pay again' }));
    expect(
      await screen.findByRole('group', { name: 'How would you like to pay?' }),
    ).toBeInTheDocument();
  });
});

describe('the payer page: back from a provider', () => {
  it('polls our server until the outcome is known, passing on the return query', async () => {
    let polls = 0;
    const calls = stubFetch({
      [pagePath]: { body: openTransactionPage() },
      [statusPath]: () => {
        polls += 1;
        return {
          body:
            polls < 3
              ? paymentStatus()
              : paymentStatus({ status: 'Pending', outcome: 'Reserved', receipt }),
        };
      },
    });
    renderPage({ payment: paymentId, resourcePath: '/v1/checkouts/CHK123/payment', id: 'CHK123' });
    expect(
      await screen.findByRole('heading', { name: 'Checking your payment' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveAttribute('aria-live', 'polite');
    expect(
      await screen.findByRole('heading', { name: 'Payment authorised, thank you' }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'Payment authorised, thank you' })).toHaveFocus(),
    );
    const statusCalls = calls.filter((call) => call.url.includes(`/payments/${paymentId}`));
    expect(statusCalls).toHaveLength(3);
    expect(statusCalls[0]!.url).toBe(
      `/api/v0/pay/${requestId}/payments/${paymentId}?resourcePath=%2Fv1%2Fcheckouts%2FCHK123%2Fpayment&id=CHK123`,
    );
  });

  it('shows a cancelled payment and offers to pay again', async () => {
    const browser = recordingBrowser();
    stubFetch({
      [pagePath]: { body: openTransactionPage() },
      [statusPath]: { body: paymentStatus({ status: 'Cancelled', outcome: 'Cancelled' }) },
    });
    renderPage({ payment: paymentId, cancelled: '1' }, browser);
    expect(await screen.findByRole('heading', { name: 'Payment cancelled' })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Pay again' }));
    expect(browser.replaceQuery).toHaveBeenCalledWith({});
    expect(await screen.findByRole('button', { name: 'Pay £1,556.22' })).toBeInTheDocument();
  });

  it('waits as long as a 429 asks before polling again', async () => {
    const times: number[] = [];
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json', ...headers },
      });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const path = new URL(String(input), 'http://localhost').pathname;
        if (path === `/api/v0/pay/${requestId}`) return json(200, openTransactionPage());
        times.push(Date.now());
        return times.length === 1
          ? json(429, { title: 'Too Many Requests', status: 429 }, { 'Retry-After': '1' })
          : json(200, paymentStatus({ status: 'Paid', outcome: 'Succeeded', receipt }));
      }),
    );
    renderPage({ payment: paymentId });
    expect(
      await screen.findByText('Too many attempts, try again in a minute. We will keep trying.'),
    ).toBeInTheDocument();
    expect(
      await screen.findByRole(
        'heading',
        { name: 'Payment successful, thank you' },
        { timeout: 3000 },
      ),
    ).toBeInTheDocument();
    expect(times).toHaveLength(2);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(950);
  });

  it('keeps polling through a network error and stops with a clear message', async () => {
    let polls = 0;
    stubFetch({
      [pagePath]: { body: openTransactionPage() },
      [statusPath]: () => {
        polls += 1;
        if (polls === 1) throw new TypeError('Failed to fetch');
        return { body: paymentStatus() };
      },
    });
    Object.assign(pollTiming, { giveUpAfterMs: 300 });
    renderPage({ payment: paymentId });
    expect(
      await screen.findByRole('heading', { name: 'Payment not confirmed yet' }, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(screen.getByText(stillWaitingMessage)).toBeInTheDocument();
    expect(polls).toBeGreaterThan(1);
  });
});
