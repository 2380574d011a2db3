import { Alert, Stack } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { PageHeader } from '@/ui/page-header';

/** spec 1 §2.1, spec 3 §2: /payment-plans is a placeholder; the product has no payment plans yet. */
export function PaymentPlansRoute() {
  return (
    <Stack gap="lg">
      <PageHeader title="Payment Plans" />
      <Alert color="gray" icon={<IconInfoCircle size={18} />} maw={640}>
        Payment plans are not available yet.
      </Alert>
    </Stack>
  );
}
