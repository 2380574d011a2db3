import { Anchor, Breadcrumbs, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeader } from '@/ui/page-header';
import { SettlementGroupForm } from './settlement-group-form';

/** spec 3 §2 settlements/new. */
export function SettlementGroupCreatePage() {
  return (
    <Stack gap="lg">
      {/* spec 2 §2: the settlements breadcrumb, as the detail pages of the other areas. */}
      <Breadcrumbs>
        <Anchor component={Link} to="/settlements">
          Settlements
        </Anchor>
        <Text span>New Settlement Group</Text>
      </Breadcrumbs>
      <PageHeader
        title="New Settlement Group"
        description="A group of early-payment discount rules."
      />
      <SettlementGroupForm />
    </Stack>
  );
}
