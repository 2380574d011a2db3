import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { CustomisationPage } from './customisation-page';

const withoutLogo = { name: 'Acme Ltd', logoUrl: null, companyDetails: null };

describe('Customisation', () => {
  it('uploads the logo as soon as a file is chosen, as imageFile with originalFilename', async () => {
    const calls = stubFetch({
      'GET /company-settings': { body: withoutLogo },
      'PUT /company-settings/logo': {
        body: {
          logoUrl: '/api/v0/company-settings/logo?v=1',
          fileName: 'acme.png',
          fileType: 'image/png',
          fileSize: 68,
        },
      },
    });
    const { container } = renderWithProviders(<CustomisationPage />, {
      user: aUser({ permissions: ['ConfigureSystemSettings'] }),
    });
    await screen.findByText('No logo uploaded.');
    const input = container.ownerDocument.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, {
      target: { files: [new File(['png bytes'], 'acme.png', { type: 'image/png' })] },
    });
    await waitFor(() => expect(calls.find((call) => call.method === 'PUT')).toBeDefined());
    const body = calls.find((call) => call.method === 'PUT')!.body as FormData;
    expect(body.get('originalFilename')).toBe('acme.png');
    expect((body.get('imageFile') as File).name).toBe('acme.png');
    expect(await screen.findByText('Logo successfully uploaded')).toBeInTheDocument();
  });

  it('clears the logo only after the confirmation', async () => {
    const calls = stubFetch({
      'GET /company-settings': {
        body: { ...withoutLogo, logoUrl: '/api/v0/company-settings/logo?v=1' },
      },
      'DELETE /company-settings/logo': { status: 204 },
    });
    renderWithProviders(<CustomisationPage />, {
      user: aUser({ permissions: ['ConfigureSystemSettings'] }),
    });
    const clear = await screen.findByRole('button', { name: 'Clear logo' });
    await waitFor(() => expect(clear).toBeEnabled());
    fireEvent.click(clear);
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    fireEvent.click(await screen.findByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE')).toBe(true));
  });
});
