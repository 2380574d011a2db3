import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { CustomisationPage } from './customisation-page';

const withoutLogo = {
  name: 'Acme Ltd',
  logoUrl: null,
  companyDetails: null,
  paymentProvider: null,
};
const bytes = (count: number) => new Uint8Array(count);

function renderPage() {
  const utils = renderWithProviders(<CustomisationPage />, {
    user: aUser({ permissions: ['ConfigureSystemSettings'] }),
  });
  const choose = (file: File) => {
    const input = utils.container.ownerDocument.querySelector(
      'input[type="file"]',
    ) as HTMLInputElement;
    fireEvent.change(input, { target: { files: [file] } });
  };
  return { ...utils, choose };
}

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
      target: { files: [new File([bytes(68)], 'acme.png', { type: 'image/png' })] },
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

  // spec 1 §5, checked in the browser before uploading; the message shows under the button.
  describe('refuses before uploading', () => {
    const cases: [string, File, string][] = [
      [
        'under 50 bytes',
        new File([bytes(49)], 'acme.png'),
        'File size is too small, minimum allowed 50 bytes',
      ],
      [
        'over 4194304 bytes',
        new File([bytes(4_194_305)], 'acme.png'),
        'File size is too large, maximum allowed 4194304 bytes',
      ],
      ['a name without an extension', new File([bytes(68)], 'acme'), 'Invalid file extension.'],
      [
        'another extension',
        new File([bytes(68)], 'acme.gif'),
        'File with the extension gif is not supported.',
      ],
    ];
    it.each(cases)('%s', async (_, file, message) => {
      const calls = stubFetch({ 'GET /company-settings': { body: withoutLogo } });
      const { choose } = renderPage();
      await screen.findByText('No logo uploaded.');
      choose(file);
      expect(await screen.findByText(message)).toBeInTheDocument();
      expect(calls.some((call) => call.method === 'PUT')).toBe(false);
    });
  });

  it('takes exactly 50 bytes and an upper-case extension, and clears the message', async () => {
    const calls = stubFetch({
      'GET /company-settings': { body: withoutLogo },
      'PUT /company-settings/logo': {
        body: {
          logoUrl: '/api/v0/company-settings/logo?v=2',
          fileName: 'ACME.JPEG',
          fileType: 'image/jpeg',
          fileSize: 50,
        },
      },
    });
    const { choose } = renderPage();
    await screen.findByText('No logo uploaded.');
    choose(new File([bytes(68)], 'acme'));
    expect(await screen.findByText('Invalid file extension.')).toBeInTheDocument();
    choose(new File([bytes(50)], 'ACME.JPEG'));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(screen.queryByText('Invalid file extension.')).not.toBeInTheDocument();
  });

  it("shows the server's refusal of the bytes under the button", async () => {
    const refusal = 'The logo must be a JPEG, PNG or SVG image.';
    stubFetch({
      'GET /company-settings': { body: withoutLogo },
      'PUT /company-settings/logo': {
        status: 400,
        body: {
          type: 'about:blank',
          title: 'Bad Request',
          status: 400,
          detail: refusal,
          errors: { imageFile: [refusal] },
        },
      },
    });
    const { choose } = renderPage();
    await screen.findByText('No logo uploaded.');
    choose(new File([bytes(68)], 'not-really.png'));
    expect(
      await screen.findByText(`An error occurred while uploading the logo: ${refusal}`),
    ).toBeInTheDocument();
    expect(screen.getByText(refusal)).toBeInTheDocument();
  });
});
