import { Alert, Button, Group, Popover, Stack, Text, TextInput } from '@mantine/core';
import { IconFileInvoice } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '@/lib/status-routing';
import { CopyButton } from '@/ui/copy-button';
import { DateTime } from '@/ui/date-time';
import { useCreateStatementLink } from '../api/create-statement-link';

/**
 * The account's statement link. Each click issues a new link (POST
 * accounts/{id}/statement-link) and shows it with its expiry and a copy button; nothing to confirm.
 * The payer opens it to see every open invoice of the account and pay some or all at once.
 */
export function StatementLinkButton({
  accountId,
  disabled,
}: {
  accountId: string;
  disabled: boolean;
}) {
  const [opened, setOpened] = useState(false);
  const create = useCreateStatementLink(accountId);
  const link = create.data;

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      width={420}
      position="bottom-end"
      withArrow
      trapFocus={false}
    >
      <Popover.Target>
        <Button
          variant="default"
          leftSection={<IconFileInvoice size={16} />}
          loading={create.isPending}
          disabled={disabled}
          onClick={() => {
            setOpened(true);
            create.mutate();
          }}
        >
          Statement link
        </Button>
      </Popover.Target>
      <Popover.Dropdown aria-label="Statement link">
        {create.isPending ? (
          <Text size="sm" role="status">
            Creating the statement link…
          </Text>
        ) : create.isError ? (
          <Stack gap="xs">
            <Alert color="red" role="alert" title="The statement link could not be created">
              {errorMessage(create.error)}
            </Alert>
            <Group justify="flex-end">
              <Button size="xs" variant="default" onClick={() => create.mutate()}>
                Try again
              </Button>
            </Group>
          </Stack>
        ) : link ? (
          <StatementLink link={link} />
        ) : null}
      </Popover.Dropdown>
    </Popover>
  );
}

/** The link just made: its address to copy, and when it expires. */
function StatementLink({ link }: { link: { url: string; expiresAt?: string | null } }) {
  return (
    <Stack gap="xs">
      <Text size="sm">
        The customer sees every open invoice of this account and pays some or all at once.
      </Text>
      <Group gap="xs" wrap="nowrap" align="center">
        <TextInput
          label="Statement link"
          value={link.url}
          readOnly
          style={{ flex: 1 }}
          onFocus={(event) => event.currentTarget.select()}
        />
        <div style={{ alignSelf: 'flex-end', paddingBottom: 4 }}>
          <CopyButton value={link.url} label="statement link" />
        </div>
      </Group>
      <Text size="sm" c="dimmed">
        {link.expiresAt ? (
          <>
            Expires <DateTime value={link.expiresAt} />
          </>
        ) : (
          'This link does not expire.'
        )}
      </Text>
    </Stack>
  );
}
