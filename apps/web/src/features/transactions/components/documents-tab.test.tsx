import type { TransactionDetail } from '@ledgerline/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { DocumentsTab } from './documents-tab';

const saveBlob = vi.hoisted(() => vi.fn());
vi.mock('@/ui/download', () => ({ saveBlob }));

const transactionId = '0199f0aa-0000-7000-8000-000000000001';
const pdf = {
  id: '0199f0aa-0000-7000-8000-0000000000d1',
  createdOn: '2026-11-02T10:00:00.000Z',
  fileType: 'application/pdf',
  fileName: 'delivery note.pdf',
  fileSize: 2_000,
};
const image = {
  ...pdf,
  id: '0199f0aa-0000-7000-8000-0000000000d2',
  fileType: 'image/png',
  fileName: 'remittance.png',
};
const transaction = { id: transactionId, documents: [pdf, image] } as unknown as TransactionDetail;
const dataPath = (documentId: string) =>
  `GET /transactions/${transactionId}/documents/${documentId}/data`;

function renderTab() {
  stubFetch({
    [dataPath(pdf.id)]: {
      body: { pdf: true },
      headers: {
        'Content-Disposition': `inline; filename="delivery note.pdf"; filename*=UTF-8''delivery%20note.pdf`,
      },
    },
    [dataPath(image.id)]: {
      body: { png: true },
      headers: { 'Content-Disposition': 'attachment; filename="remittance.png"' },
    },
  });
  renderWithProviders(<DocumentsTab transaction={transaction} />, { user: aUser() });
}

describe('the documents tab', () => {
  it('gives every document a download action, a PDF included', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:http://localhost/viewed');
    URL.revokeObjectURL = vi.fn();
    renderTab();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Download delivery note.pdf' }));
    await waitFor(() =>
      expect(saveBlob).toHaveBeenCalledWith(expect.anything(), 'delivery note.pdf'),
    );
    await user.click(screen.getByRole('button', { name: 'Download remittance.png' }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledWith(expect.anything(), 'remittance.png'));

    // A PDF opens in the viewer, which offers the download as well.
    saveBlob.mockClear();
    await user.click(screen.getByRole('button', { name: 'delivery note.pdf' }));
    const viewer = await screen.findByRole('dialog', { name: 'delivery note.pdf' });
    expect(viewer.querySelector('iframe')).toHaveAttribute('src', 'blob:http://localhost/viewed');
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(saveBlob).toHaveBeenCalledWith(expect.anything(), 'delivery note.pdf');
  });
});

// Spec 2 §7: "download; file name from the content-disposition header, default document.pdf".
describe('the downloaded file’s name', () => {
  const download = async (headers?: Record<string, string>, doc = image) => {
    saveBlob.mockClear();
    stubFetch({ [dataPath(doc.id)]: { body: { bytes: true }, headers } });
    const { unmount } = renderWithProviders(
      <DocumentsTab transaction={{ ...transaction, documents: [doc] }} />,
      { user: aUser() },
    );
    await userEvent.click(screen.getByRole('button', { name: `Download ${doc.fileName}` }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalled());
    unmount();
    return saveBlob.mock.calls[0]![1] as string;
  };

  it('is the RFC 5987 filename* of the answer, over its plain filename and the listed name', async () => {
    expect(
      await download({
        'Content-Disposition': `attachment; filename="r_sum_.png"; filename*=UTF-8''r%C3%A9sum%C3%A9%20scan.png`,
      }),
    ).toBe('résumé scan.png');
  });

  it('is the plain filename of the answer when it has no filename*', async () => {
    expect(
      await download({ 'Content-Disposition': 'attachment; filename="Remittance 2026-11.png"' }),
    ).toBe('Remittance 2026-11.png');
  });

  it('is document.pdf when the answer names no file', async () => {
    expect(await download()).toBe('document.pdf');
    expect(await download({ 'Content-Disposition': 'attachment' })).toBe('document.pdf');
  });

  it('names the PDF viewer after the answer’s file name', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:http://localhost/viewed');
    URL.revokeObjectURL = vi.fn();
    stubFetch({
      [dataPath(pdf.id)]: {
        body: { pdf: true },
        headers: { 'Content-Disposition': `inline; filename*=UTF-8''Lieferschein%20%C3%9C.pdf` },
      },
    });
    renderWithProviders(<DocumentsTab transaction={{ ...transaction, documents: [pdf] }} />, {
      user: aUser(),
    });
    await userEvent.click(screen.getByRole('button', { name: 'delivery note.pdf' }));
    expect(await screen.findByRole('dialog', { name: 'Lieferschein Ü.pdf' })).toBeInTheDocument();
  });
});

// A file over the limit is refused before it is sent.
describe('uploading a document', () => {
  it('refuses a file over 10 MB without sending it', async () => {
    const calls = stubFetch({});
    renderWithProviders(<DocumentsTab transaction={transaction} />, {
      user: aUser({ permissions: ['UploadTransactionDocument'] }),
    });
    const big = new File(['x'], 'scan.pdf', { type: 'application/pdf' });
    Object.defineProperty(big, 'size', { value: 11_000_000 });
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    await userEvent.upload(input, big);
    expect(
      await screen.findByText(
        'An error occurred while uploading the document: The file is larger than 10 MB.',
      ),
    ).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });
});
