import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { pollTiming } from './components/payment-outcome';
import { frameMessages, frameTiming } from './components/transafe-frame';
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
const ticketPath = `POST /pay/${requestId}/payments/${paymentId}/transafe`;
const tranSafeOrigin = 'https://test.transafe.com';
const hmac = 'a'.repeat(64);

const next = {
  kind: 'transafe-frame',
  frameUrl: `${tranSafeOrigin}/PaymentFrame/?hmac-hmacsha256=${hmac}&hmac-sequence=${paymentId}`,
  frameOrigin: tranSafeOrigin,
  attributes: {
    'data-hmac-hmacsha256': hmac,
    'data-hmac-timestamp': '1796000000',
    'data-hmac-domain': 'http://localhost',
    'data-hmac-sequence': paymentId,
    'data-hmac-username': 'test_retail|public',
  },
};
const storageKey = `ledgerline.pay.transafe.${paymentId}`;

const savedTiming = { ...pollTiming };
const savedFrameTiming = { ...frameTiming };
beforeEach(() => {
  Object.assign(pollTiming, { firstDelayMs: 20, maxDelayMs: 40, giveUpAfterMs: 2000 });
});
afterEach(() => {
  Object.assign(pollTiming, savedTiming);
  Object.assign(frameTiming, savedFrameTiming);
  window.sessionStorage.clear();
});

/** The page's load with `?frame=`: the frame kept by the start is shown. */
async function frameLoad(routes: Parameters<typeof stubFetch>[0] = {}) {
  window.sessionStorage.setItem(
    storageKey,
    JSON.stringify({ next, amount: 1556.22, currency: 'GBP' }),
  );
  const calls = stubFetch({ [pagePath]: { body: openTransactionPage() }, ...routes });
  const browser = recordingBrowser();
  render(<PayApp requestId={requestId} query={{ frame: paymentId }} browser={browser} />);
  const heading = await screen.findByRole('heading', { name: 'Card details' });
  await waitFor(() => expect(heading).toHaveFocus());
  const frame = screen.getByTitle('Card details (TranSafe secure form)') as HTMLIFrameElement;
  const toFrame = vi.spyOn(frame.contentWindow!, 'postMessage');
  return { calls, browser, frame, toFrame, user: userEvent.setup() };
}

/** What the PaymentFrame answers the page with. */
function frameSays(frame: HTMLIFrameElement, data: unknown, origin = tranSafeOrigin) {
  act(() => {
    window.dispatchEvent(
      new MessageEvent('message', {
        data: JSON.stringify(data),
        origin,
        source: frame.contentWindow,
      }),
    );
  });
}

describe('the TranSafe PaymentFrame on the payer page', () => {
  it('keeps the frame for the reload that may frame TranSafe', async () => {
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
      expect(browser.goTo).toHaveBeenCalledWith(`/pay/${requestId}?frame=${paymentId}`),
    );
    expect(JSON.parse(window.sessionStorage.getItem(storageKey)!)).toEqual({
      next,
      amount: 1556.22,
      currency: 'GBP',
    });
  });

  it('shows the frame with its HMAC fields, asks it for a ticket, and pays with it', async () => {
    const { frame, toFrame, user, calls, browser } = await frameLoad({
      [ticketPath]: {
        body: paymentStatus({
          status: 'Paid',
          outcome: 'Succeeded',
          receipt: { ...receipt, providerName: 'TranSafe' },
        }),
      },
    });
    expect(frame).toHaveAttribute('src', next.frameUrl);
    for (const [name, value] of Object.entries(next.attributes))
      expect(frame).toHaveAttribute(name, value);

    await user.click(screen.getByRole('button', { name: 'Pay £1,556.22' }));
    expect(toFrame).toHaveBeenCalledWith(
      JSON.stringify({ type: 'submitPaymentData' }),
      tranSafeOrigin,
    );
    expect(screen.getByRole('button', { name: 'Paying…' })).toBeDisabled();

    // A message from any other origin is not the frame's: nothing is sent.
    frameSays(
      frame,
      { code: 'AUTH', ticket: 'forged', monetra_resp_hmacsha256: hmac },
      'https://evil.example',
    );
    expect(calls.filter((call) => call.url.endsWith('/transafe'))).toHaveLength(0);

    frameSays(frame, { code: 'AUTH', ticket: 'tkt-123', monetra_resp_hmacsha256: hmac });
    expect(
      await screen.findByRole('heading', { name: 'Payment successful, thank you' }),
    ).toBeInTheDocument();
    expect(calls.find((call) => call.url.endsWith('/transafe'))?.body).toEqual({
      ticket: 'tkt-123',
      ticketHmac: hmac,
    });
    expect(browser.replaceQuery).toHaveBeenCalledWith({ payment: paymentId });
  });

  it('says what the frame refused (an invalid card number) and lets the payer try again', async () => {
    const { frame, user, calls } = await frameLoad();
    await user.click(screen.getByRole('button', { name: 'Pay £1,556.22' }));
    frameSays(frame, { code: 'DENY', verbiage: 'Invalid card number' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid card number');
    expect(screen.getByRole('button', { name: 'Pay £1,556.22' })).toBeEnabled();
    expect(calls.filter((call) => call.url.endsWith('/transafe'))).toHaveLength(0);
  });

  it('shows the server’s refusal of a ticket', async () => {
    const { frame, user } = await frameLoad({
      [ticketPath]: {
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
    frameSays(frame, { code: 'AUTH', ticket: 'tkt-9', monetra_resp_hmacsha256: hmac });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Card details were already sent for this payment. Refresh the page to see its outcome.',
    );
  });

  it('says so when the frame does not answer', async () => {
    frameTiming.answerTimeoutMs = 30;
    const { user } = await frameLoad();
    await user.click(screen.getByRole('button', { name: 'Pay £1,556.22' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(frameMessages.notAnswered);
    expect(screen.getByRole('button', { name: 'Pay £1,556.22' })).toBeEnabled();
  });

  it('a frame load whose frame was not kept offers to start again', async () => {
    stubFetch({ [pagePath]: { body: openTransactionPage() } });
    render(
      <PayApp requestId={requestId} query={{ frame: paymentId }} browser={recordingBrowser()} />,
    );
    expect(
      await screen.findByRole('heading', { name: 'This card form has expired' }),
    ).toBeInTheDocument();
  });
});
