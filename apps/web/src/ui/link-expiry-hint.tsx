import { expiryHint } from '@ledgerline/contract';
import { Text } from '@mantine/core';
import { usePaymentRequestDefaults } from '@/lib/api/payment-request-settings';

/**
 * The company's default link expiry and usage type (Preferences, spec 3 §2), under a New
 * Request dialog whose request takes them.
 */
export function LinkExpiryHint() {
  const defaults = usePaymentRequestDefaults();
  if (!defaults) return null;
  const addition = defaults.validUntilAddition;
  return (
    <Text size="sm" c="dimmed" data-testid="link-expiry-hint">
      {expiryHint(addition?.unit ?? null, addition?.quantity ?? null)}. Usage:{' '}
      {defaults.defaultUsageType}.
    </Text>
  );
}
