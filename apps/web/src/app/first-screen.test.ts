import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '@/lib/query-keys';
import { setCompanyId } from '@/lib/storage';
import { storeSession } from '@/lib/session';
import { aUser } from '@/test/fixtures';
import { companyCookie, keepCompanyCookie, startFirstScreen } from './first-screen';

// The first screen the server wrote into the page (docs/decisions/175-…): its answers fill the
// shell's queries before the first render, for the tab's own company only.
const me = aUser({ forename: 'Ann' });
function writeBlock(company: number) {
  const block = document.createElement('script');
  block.type = 'application/json';
  block.id = 'first-screen-answers';
  block.textContent = JSON.stringify({
    company,
    answers: {
      '/api/v0/info/feature-flags?target=adminPortal': {
        status: 200,
        body: { featureFlags: { PermissionPolicy: true } },
      },
      '/api/v0/users/me': { status: 200, body: me },
      [`/api/v0/data-sets/${company}/exists`]: { status: 204, body: null },
      '/api/v0/data-sets/all': { status: 200, body: { items: [] } },
      '/api/v0/info/site': {
        status: 200,
        body: { termsOfServiceUrl: null, privacyPolicyUrl: null, clientReports: false },
      },
    },
  });
  document.head.appendChild(block);
}
const router = { state: { initialized: true }, subscribe: () => () => {} };

afterEach(() => {
  document.getElementById('first-screen-answers')?.remove();
  vi.restoreAllMocks();
});

describe('the server’s first screen', () => {
  it('fills the shell’s queries from the page, asking the API nothing', async () => {
    storeSession(3600, null);
    setCompanyId(4);
    writeBlock(4);
    const fetch = vi.spyOn(window, 'fetch');
    const client = new QueryClient();
    await startFirstScreen(client, router);
    expect(client.getQueryData(queryKeys.users.me())).toEqual(me);
    expect(client.getQueryData(queryKeys.info.featureFlags('adminPortal'))).toEqual({
      PermissionPolicy: true,
    });
    expect(client.getQueryData(queryKeys.datasets.exists(4))).toBe(true);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('takes nothing written for another company', async () => {
    storeSession(3600, null);
    setCompanyId(5);
    writeBlock(4);
    const client = new QueryClient();
    await startFirstScreen(client, router);
    expect(client.getQueryData(queryKeys.users.me())).toBeUndefined();
  });

  it('keeps the company cookie equal to the chosen company', () => {
    setCompanyId(6);
    keepCompanyCookie();
    expect(document.cookie).toContain(`${companyCookie}=6`);
    setCompanyId(7);
    expect(document.cookie).toContain(`${companyCookie}=7`);
  });
});
