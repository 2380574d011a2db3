import { describe, expect, it, vi } from 'vitest';
import { firstCallsKey } from './first-calls';
import { clearSession, storeSession } from './session';

const stored = () => JSON.parse(window.localStorage.getItem(firstCallsKey) ?? '{}');

describe('the first screen calls remembered for boot.js', () => {
  it("keeps the first screen's plain GETs by address, with their company, once each, until a call for another company", async () => {
    // A fresh module, as on a page's first load: in the shared test environment another file may
    // have loaded it long before (its recording then over) or pressed a key.
    vi.resetModules();
    const { recordFirstCall } = await import('./first-calls');
    window.localStorage.removeItem(firstCallsKey);
    const path = window.location.pathname;
    recordFirstCall('/api/v0/info/site', null);
    recordFirstCall('/api/v0/dashboard/to-do', 2);
    recordFirstCall('/api/v0/dashboard/to-do', 2);
    expect(stored()[path]).toEqual({
      company: 2,
      calls: ['t /api/v0/info/site', 'c /api/v0/dashboard/to-do'],
    });

    // A call for another company ends the first screen; nothing after it is kept.
    recordFirstCall('/api/v0/company-settings', 3);
    recordFirstCall('/api/v0/client-reports', 2);
    expect(stored()[path].calls).toEqual(['t /api/v0/info/site', 'c /api/v0/dashboard/to-do']);
  });

  it('keeps nothing once a person has pressed a key', async () => {
    vi.resetModules();
    const fresh = await import('./first-calls');
    window.localStorage.removeItem(firstCallsKey);
    const path = window.location.pathname;
    fresh.recordFirstCall('/api/v0/accounts?page=1', 2);
    expect(stored()[path].calls).toEqual(['c /api/v0/accounts?page=1']);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' }));
    fresh.recordFirstCall('/api/v0/accounts?page=1&search=acme', 2);
    expect(stored()[path].calls).toEqual(['c /api/v0/accounts?page=1']);
  });

  it('forgets every remembered call when a session starts or ends (it may be another person)', () => {
    window.localStorage.setItem(
      firstCallsKey,
      JSON.stringify({ '/': { company: 1, calls: ['t /api/v0/info/site'] } }),
    );
    storeSession(3600, null);
    expect(window.localStorage.getItem(firstCallsKey)).toBeNull();
    window.localStorage.setItem(
      firstCallsKey,
      JSON.stringify({ '/': { company: 1, calls: ['t /api/v0/info/site'] } }),
    );
    clearSession();
    expect(window.localStorage.getItem(firstCallsKey)).toBeNull();
  });
});
