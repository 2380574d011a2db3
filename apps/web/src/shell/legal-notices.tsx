import { Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';

/**
 * Terms of service and privacy policy belong to whoever operates this Ledgerline installation;
 * the site does not pretend to have them.
 */
export function openTermsOfService(): void {
  modals.open({
    title: 'Terms of service',
    children: (
      <Stack gap="sm">
        <Text size="sm">
          The terms of service for this Ledgerline service are set by its operator, the organisation
          that runs it for your company.
        </Text>
        <Text size="sm">Ask your administrator or account manager for a copy.</Text>
      </Stack>
    ),
  });
}

export function openPrivacyPolicy(): void {
  modals.open({
    title: 'Privacy policy',
    children: (
      <Stack gap="sm">
        <Text size="sm">
          The privacy policy for this Ledgerline service is provided by its operator. It explains
          which personal data of your staff and customers is kept and how it is used.
        </Text>
        <Text size="sm">Ask your administrator or account manager for a copy.</Text>
      </Stack>
    ),
  });
}
