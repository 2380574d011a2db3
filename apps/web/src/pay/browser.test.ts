import { describe, expect, it, vi } from 'vitest';
import { queryOf, realBrowser, requestIdFromPath } from './browser';

describe('the payer page in the browser', () => {
  it('reads the request id from /pay/{id} and nothing else', () => {
    expect(requestIdFromPath('/pay/0190d7a2-5c3e-7b4a-9e1f-2a3b4c5d6e7f')).toBe(
      '0190d7a2-5c3e-7b4a-9e1f-2a3b4c5d6e7f',
    );
    expect(requestIdFromPath('/pay/abc/')).toBe('abc');
    expect(requestIdFromPath('/pay/')).toBeNull();
    expect(requestIdFromPath('/pay/a/b')).toBeNull();
    expect(requestIdFromPath('/payment-requests/abc')).toBeNull();
  });

  it('reads the query the provider sent the payer back with', () => {
    expect(queryOf('?payment=p1&resourcePath=%2Fv1%2Fcheckouts%2Fx%2Fpayment')).toEqual({
      payment: 'p1',
      resourcePath: '/v1/checkouts/x/payment',
    });
  });

  it('POSTs a hosted form with its fields as hidden inputs', () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    realBrowser.postTo('https://test.transafe.com/hosted', { token: 'a&b', amount: '10.00' });
    expect(submit).toHaveBeenCalledTimes(1);
    const form = submit.mock.contexts[0] as HTMLFormElement;
    expect(form.method).toBe('post');
    expect(form.action).toBe('https://test.transafe.com/hosted');
    expect(Object.fromEntries(new FormData(form))).toEqual({ token: 'a&b', amount: '10.00' });
    form.remove();
  });

  it('rewrites the query without loading the page', () => {
    window.history.replaceState(null, '', '/pay/abc?checkout=x');
    realBrowser.replaceQuery({ payment: 'p1' });
    expect(window.location.pathname + window.location.search).toBe('/pay/abc?payment=p1');
    realBrowser.replaceQuery({});
    expect(window.location.pathname + window.location.search).toBe('/pay/abc');
  });
});
