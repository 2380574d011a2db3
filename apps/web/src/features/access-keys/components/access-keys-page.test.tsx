import type { AccessKey } from '@ledgerline/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { prepareGridTests } from '@/ui/grid-test-support';
import { AccessKeysPage } from './access-keys-page';

beforeAll(prepareGridTests);

const connector: AccessKey = {
  id: '0192f3a4-5b6c-7d8e-9f01-0000000000a1',
  name: 'Sage connector',
  validUntil: null,
  prefix: 'llk_AbC123',
  createdOn: '2024-03-01T10:00:00Z',
  datasetId: null,
};
const fullKey = 'llk_NeW456_s3cr3t-value-0123456789abcdef';

function renderPage({
  flag = true,
  count = 1,
  maximum = 5,
  routes = {},
}: {
  flag?: boolean;
  count?: number;
  maximum?: number;
  routes?: Parameters<typeof stubFetch>[0];
} = {}) {
  const base = flag ? '/access-keys' : '/subscription-keys';
  const calls = stubFetch({
    [`GET ${base}`]: { body: { items: [connector] } },
    [`GET ${base}/count`]: { body: { count } },
    [`GET ${base}/maximum`]: { body: { maximumKeyCount: maximum } },
    ...routes,
  });
  renderWithProviders(<AccessKeysPage />, {
    user: aUser(),
    flags: { NewAccessKeyPage: flag },
    path: '/settings/access-keys',
  });
  return calls;
}

describe('Access keys page', () => {
  it('lists keys by their prefix followed by dots, with no expiration', async () => {
    renderPage();
    expect(await screen.findByText('Sage connector')).toBeInTheDocument();
    expect(screen.getByText('llk_AbC123…')).toBeInTheDocument();
    expect(screen.getByText('No expiration')).toBeInTheDocument();
    expect(screen.getByText(/Authorization: Bearer/)).toBeInTheDocument();
  });

  it('creates a key and shows the full key once', async () => {
    const calls = renderPage({
      routes: {
        'POST /access-keys': ({ body }) => ({
          status: 201,
          body: {
            ...connector,
            id: '0192f3a4-5b6c-7d8e-9f01-0000000000a2',
            name: (body as { name: string }).name,
            prefix: 'llk_NeW456',
            accessKey: fullKey,
          },
        }),
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Create Access Key' }));
    const form = await screen.findByRole('dialog', { name: 'Create Access Key' });
    await userEvent.type(within(form).getByRole('textbox', { name: 'Name' }), ' ERP ');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));

    const created = await screen.findByRole('dialog', { name: 'Access key created' });
    expect(within(created).getByRole('textbox', { name: 'Access key' })).toHaveValue(fullKey);
    expect(within(created).getByText(/cannot be shown again/)).toBeInTheDocument();
    expect(within(created).getByRole('button', { name: 'Copy access key' })).toBeInTheDocument();
    expect(screen.getByText('Access key successfully added')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'ERP',
      validUntil: null,
    });

    // The dialog's own Close (the × is named Close too, and is no tab stop: theme.ts).
    const close = within(created)
      .getAllByRole('button', { name: 'Close' })
      .find((button) => button.getAttribute('tabindex') !== '-1')!;
    await userEvent.click(close);
    await waitFor(() => expect(screen.queryByDisplayValue(fullKey)).not.toBeInTheDocument());
  });

  it('says a past valid-until date is not allowed', async () => {
    const calls = renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Create Access Key' }));
    const form = await screen.findByRole('dialog', { name: 'Create Access Key' });
    await userEvent.type(within(form).getByRole('textbox', { name: 'Name' }), 'Old');
    await userEvent.type(within(form).getByRole('textbox', { name: 'Valid until' }), '2020-01-31');
    await userEvent.click(within(form).getByRole('textbox', { name: 'Name' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));

    expect(
      await within(form).findByText('Expired date must be more than current date.'),
    ).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('shows the maximum-reached message instead of the create button', async () => {
    renderPage({ count: 5, maximum: 5 });
    expect(
      await screen.findByText(
        'You have reached the maximum number of keys. Delete a key to create another.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Access Key' })).not.toBeInTheDocument();
  });

  it('edits the name and expiry', async () => {
    const calls = renderPage({
      routes: {
        [`PUT /access-keys/${connector.id}`]: ({ body }) => ({
          body: { ...connector, ...(body as object) },
        }),
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Sage connector' }));
    const form = await screen.findByRole('dialog', { name: 'Edit Access Key' });
    await userEvent.type(within(form).getByRole('textbox', { name: 'Valid until' }), '2099-12-31');
    await userEvent.click(within(form).getByRole('textbox', { name: 'Name' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Access key successfully updated')).toBeInTheDocument();
    // The end of that day in London (the default zone), in winter: UTC.
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      name: 'Sage connector',
      validUntil: '2099-12-31T23:59:59.999Z',
    });
  });

  it('deletes after a confirmation naming the key', async () => {
    const calls = renderPage({
      routes: { [`DELETE /access-keys/${connector.id}`]: { status: 204 } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Sage connector' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Access Key' });
    expect(within(dialog).getByText(/Sage connector/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Access key successfully deleted')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(true);
  });

  it('shows the detail of a maximumKeyCountReached answer', async () => {
    renderPage({
      routes: {
        'POST /access-keys': {
          status: 409,
          body: {
            type: 'about:blank',
            title: 'Conflict',
            status: 409,
            detail: 'The maximum of 5 keys has been reached.',
            errorCode: 'maximumKeyCountReached',
          },
        },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Create Access Key' }));
    const form = await screen.findByRole('dialog', { name: 'Create Access Key' });
    await userEvent.type(within(form).getByRole('textbox', { name: 'Name' }), 'One too many');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The maximum of 5 keys has been reached.')).toBeInTheDocument();
  });
});

describe('Subscription keys (NewAccessKeyPage off)', () => {
  it('creates a tenant-wide key with its name only and shows it once', async () => {
    const calls = renderPage({
      flag: false,
      routes: {
        'POST /subscription-keys': {
          status: 201,
          body: { ...connector, name: 'Legacy', accessKey: fullKey },
        },
      },
    });
    expect(await screen.findByText('llk_AbC123…')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Sage connector' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create Subscription Key' }));
    const form = await screen.findByRole('dialog', { name: 'Create Subscription Key' });
    expect(within(form).queryByRole('textbox', { name: 'Valid until' })).not.toBeInTheDocument();
    await userEvent.type(within(form).getByRole('textbox', { name: 'Name' }), 'Legacy');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));

    const created = await screen.findByRole('dialog', { name: 'Subscription key created' });
    expect(within(created).getByRole('textbox', { name: 'Subscription key' })).toHaveValue(fullKey);
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.url).toBe('/api/v0/subscription-keys?noDataset=true');
    expect(post?.body).toEqual({ name: 'Legacy' });
  });
});
