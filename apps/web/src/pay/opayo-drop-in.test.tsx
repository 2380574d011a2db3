import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { dropInMessages } from './components/opayo-drop-in';
import { pollTiming } from './components/payment-outcome';
import { PayApp } from './pay-app';
import {
  openTransactionPage,
  paymentId,
  paymentStatus,
  receipt,
  recordingBrowser,
  requestId,
} from './test-support';

const pagePath = `GET /pay/${requestId}`;
const startPath = `POST /pay/${requestId}/payments`;
const cardPath = `POST /pay/${requestId}/payments/${paymentId}/opayo`;
const scriptUrl = 'https://sandbox.opayo.eu.elavon.com/api/v1/js/sagepay.js';

const next = {
  kind: 'opayo-pi',
  scriptUrl,
  merchantSessionKey: 'F42164DA-4A10-4060-AD04-F6101821EFC3',
};
const storageKey = `ledgerline.pay.opayo.${paymentId}`;

type Options = Parameters<NonNullable<Window['sagepayCheckout']>>[0];

/** Opayo.js as the page sees it: records how it was mounted and what it was asked. */
function fakeOpayoJs() {
  const drop = {
    options: null as Options | null,
    form: vi.fn(),
    tokenise: vi.fn(),
    destroy: vi.fn(),
  };
  window.sagepayCheckout = (options) => {
    drop.options = options;
    return { form: drop.form, tokenise: drop.tokenise, destroy: drop.destroy };
  };
  return drop;
}

const savedTiming = { ...pollTiming };
beforeEach(() => {
  Object.assign(pollTiming, { firstDelayMs: 20, maxDelayMs: 40, giveUpAfterMs: 2000 });
});
afterEach(() => {
  Object.assign(pollTiming, savedTiming);
  window.sessionStorage.clear();
  delete window.sagepayCheckout;
  document.head.querySelectorAll('script').forEach((script) => script.remove());
});

/** The page's load with `?opayo=`: the drop-in kept by the start is shown. */
async function dropInLoad(routes: Parameters<typeof stubFetch>[0] = {}) {
  window.sessionStorage.setItem(
    storageKey,
    JSON.stringify({ next, amount: 1556.22, currency: 'GBP' }),
  );
  const calls = stubFetch({ [pagePath]: { body: openTransactionPage() }, ...routes });
  const browser = recordingBrowser();
  render(<PayApp requestId={requestId} query={{ opayo: paymentId }} browser={browser} />);
  const heading = await screen.findByRole('heading', { name: 'Card details' });
  await waitFor(() => expect(heading).toHaveFocus());
  return { calls, browser, user: userEvent.setup() };
}

describe('the Opayo Pi drop-in on the payer page', () => {
  it('keeps the drop-in for the reload that may run Opayo.js', async () => {
    stubFetch({
      [pagePath]: { body: openTransactionPage() },
      [startPath]: { body: { paymentId, amount: 1556.22, currency: 'GBP', next } },
    });
    const browser = recordingBrowser();
    render(<PayApp requestId={requestId} query={{}} browser={browser} />);
    const user = userEvent.setup();
    await screen.findByRole('button', { name: /^Pay/ });
    await user.type(screen.getByLabelText('First names'), 'Ada');
    await user.type(screen.getByLabelText('Surname'), 'Lovelace');
    await user.type(screen.getByLabelText(/Email address/), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Pay £1,556.22' }));
    await waitFor(() =>
      expect(browser.goTo).toHaveBeenCalledWith(`/pay/${requestId}?opayo=${paymentId}`),
    );
    expect(JSON.parse(window.sessionStorage.getItem(storageKey)!)).toEqual({
      next,
      amount: 1556.22,
      currency: 'GBP',
    });
  });

  it('mounts the drop-in with the session key, tokenises on Pay, and pays with the card identifier', async () => {
    const drop = fakeOpayoJs();
    const { calls, user, browser } = await dropInLoad({
      [cardPath]: {
        body: paymentStatus({
          status: 'Paid',
          outcome: 'Succeeded',
          receipt: { ...receipt, providerName: 'Opayo' },
        }),
      },
    });
    expect(drop.options).toMatchObject({
      merchantSessionKey: next.merchantSessionKey,
      containerSelector: '#sp-container',
    });
    expect(drop.form).toHaveBeenCalledOnce();
    expect(document.getElementById('sp-container')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Pay £1,556.22' }));
    expect(drop.tokenise).toHaveBeenCalledOnce();
    expect(screen.getByRole('button', { name: 'Paying…' })).toBeDisabled();
    act(() => drop.options!.onTokenise({ success: true, cardIdentifier: 'CARD-ID-1' }));
    expect(
      await screen.findByRole('heading', { name: 'Payment successful, thank you' }),
    ).toBeInTheDocument();
    const sent = calls.find((call) => call.url.endsWith('/opayo'))?.body as {
      cardIdentifier: string;
      browser: Record<string, unknown>;
    };
    expect(sent.cardIdentifier).toBe('CARD-ID-1');
    expect(sent.browser).toMatchObject({
      language: expect.any(String),
      timeZoneOffset: new Date().getTimezoneOffset(),
    });
    // No amount goes from the page: the server charges its own.
    expect(sent).not.toHaveProperty('amount');
    expect(browser.replaceQuery).toHaveBeenCalledWith({ payment: paymentId });
  });

  it('sends the payer to the card issuer’s 3-D Secure page when the server answers a challenge', async () => {
    const drop = fakeOpayoJs();
    const challenge = {
      acsUrl: 'https://acs.bank.example/challenge',
      creq: 'eyJjcmVxIjoxfQ',
      threeDSSessionData: 'MDE5MGQ3YTI',
    };
    const { user, browser } = await dropInLoad({
      [cardPath]: { body: { ...paymentStatus(), challenge } },
    });
    await user.click(screen.getByRole('button', { name: 'Pay £1,556.22' }));
    act(() => drop.options!.onTokenise({ success: true, cardIdentifier: 'CARD-ID-2' }));
    await waitFor(() =>
      expect(browser.postTo).toHaveBeenCalledWith(challenge.acsUrl, {
        creq: challenge.creq,
        threeDSSessionData: challenge.threeDSSessionData,
      }),
    );
    expect(screen.getByRole('button', { name: 'Paying…' })).toBeDisabled();
  });

  it('says what Opayo.js refused, and the server’s refusal, and lets the payer try again', async () => {
    const drop = fakeOpayoJs();
    const { user, calls } = await dropInLoad({
      [cardPath]: {
        status: 409,
        body: {
          title: 'Conflict',
          status: 409,
          detail:
            'Card details were already sent for this payment. Refresh the page to see its outcome.',
        },
      },
    });
    await user.click(screen.getByRole('button', { name: 'Pay £1,556.22' }));
    act(() =>
      drop.options!.onTokenise({ success: false, error: { errorMessage: 'Invalid card number' } }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid card number');
    expect(screen.getByRole('button', { name: 'Pay £1,556.22' })).toBeEnabled();
    expect(calls.filter((call) => call.url.endsWith('/opayo'))).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Pay £1,556.22' }));
    act(() => drop.options!.onTokenise({ success: true, cardIdentifier: 'CARD-ID-3' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Card details were already sent for this payment. Refresh the page to see its outcome.',
      ),
    );
  });

  it('loads Opayo.js from the step’s address and says so when it cannot', async () => {
    await dropInLoad();
    const script = document.head.querySelector(`script[src="${scriptUrl}"]`);
    expect(script).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Pay £1,556.22' })).toBeDisabled();
    act(() => {
      script!.dispatchEvent(new Event('error'));
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(dropInMessages.notLoaded);
  });

  it('a drop-in load whose step was not kept offers to start again', async () => {
    stubFetch({ [pagePath]: { body: openTransactionPage() } });
    render(
      <PayApp requestId={requestId} query={{ opayo: paymentId }} browser={recordingBrowser()} />,
    );
    expect(
      await screen.findByRole('heading', { name: 'This card form has expired' }),
    ).toBeInTheDocument();
  });
});
