import { fundingMessages } from '@ledgerline/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { FundingPage } from './funding-page';

describe('Funding Search', () => {
  it("frames Capitalise's funding search at the address the server gives", async () => {
    const searchUrl =
      'https://capitalise.com/app/questionnaire/funding/search?introducer=partner-7';
    stubFetch({ 'GET /funding/search': { body: { searchUrl } } });
    renderWithProviders(<FundingPage />, { user: aUser(), flags: { Capitalise: true } });
    expect(await screen.findByTitle('Capitalise funding search')).toHaveAttribute('src', searchUrl);
  });

  it('says how to enable it when no introducer key is set', async () => {
    stubFetch({ 'GET /funding/search': { body: { searchUrl: null } } });
    renderWithProviders(<FundingPage />, { user: aUser(), flags: { Capitalise: true } });
    expect(await screen.findByText(fundingMessages.notConfigured)).toBeInTheDocument();
    expect(screen.queryByTitle('Capitalise funding search')).toBeNull();
  });
});
