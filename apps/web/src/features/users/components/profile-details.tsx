import type { UserMe } from '@ledgerline/contract';
import { Card, SimpleGrid, TextInput, Title } from '@mantine/core';
import { CopyButton } from '@/ui/copy-button';

/** spec 2 §2 /my-settings, read-only part: display name, e-mail, company id. */
export function ProfileDetails({ user }: { user: UserMe }) {
  return (
    <Card>
      <Title order={3} size="h4" mb="md">
        Profile
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <TextInput label="Display name" value={user.displayName} readOnly variant="filled" />
        <TextInput label="Email" value={user.emailAddress} readOnly variant="filled" />
        <TextInput
          label="Company id"
          value={user.tenantId}
          readOnly
          variant="filled"
          rightSection={<CopyButton value={user.tenantId} label="company id" />}
        />
      </SimpleGrid>
    </Card>
  );
}
