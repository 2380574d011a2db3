import { Stack } from '@mantine/core';
import { PageHeader } from '@/ui/page-header';
import { SettlementGroupForm } from './settlement-group-form';

/** spec 3 §2 settlements/new. */
export function SettlementGroupCreatePage() {
  return (
    <Stack gap="lg">
      <PageHeader
        title="New Settlement Group"
        description="A group of early-payment discount rules."
      />
      <SettlementGroupForm />
    </Stack>
  );
}
