import { Stack, Tabs } from '@mantine/core';
import { IconBuilding, IconBuildingSkyscraper } from '@tabler/icons-react';
import { useDatasetsAll } from '@/lib/api/get-datasets-all';
import { useCompanyId } from '@/lib/company';
import { CountTab } from '@/ui/count-tab';
import { PageHeader } from '@/ui/page-header';
import { useAuditLogs } from '../api/get-audit-logs';
import { ActivityGrid } from './activity-grid';

/** spec 3 §2 /activities: the current company's activities and the tenant's. */
export function ActivitiesPage() {
  const companyId = useCompanyId();
  const companies = useDatasetsAll();
  const companyName =
    companies.data?.find((company) => company.id === companyId)?.name ?? 'Company';
  // Each tab's first page, which the open tab's grid shares (the same query), says how many.
  const companyFirst = useAuditLogs('company', undefined);
  const tenantFirst = useAuditLogs('tenant', undefined);

  return (
    <Stack gap="lg">
      <PageHeader
        title="Activities"
        description="Who did what and when: the changes and sign-ins recorded for the current company and for the whole account (users, companies and keys)."
      />
      <Tabs defaultValue="company" keepMounted={false}>
        <Tabs.List>
          <CountTab
            value="company"
            label={companyName}
            noun="activities"
            leftSection={<IconBuilding size={16} />}
            count={companyFirst.data?.count}
          />
          <CountTab
            value="tenant"
            label="Tenant"
            noun="activities"
            leftSection={<IconBuildingSkyscraper size={16} />}
            count={tenantFirst.data?.count}
          />
        </Tabs.List>
        <Tabs.Panel value="company" pt="md">
          <ActivityGrid scope="company" label={`${companyName} activities`} />
        </Tabs.Panel>
        <Tabs.Panel value="tenant" pt="md">
          <ActivityGrid scope="tenant" label="Tenant activities" />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
