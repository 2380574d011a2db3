import { Alert, Anchor, Breadcrumbs, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { useDatasetsAll } from '@/lib/api/get-datasets-all';
import { DetailLoadError } from '@/ui/detail-load-error';
import { LoadingState } from '@/ui/loading-state';
import { PageHeader } from '@/ui/page-header';
import { usePageTitle } from '@/ui/page-title';

const companiesPath = '/settings/companies';

/**
 * spec 1 §2.1 "Companies with {id}": the dataset detail is a placeholder page. It names the
 * company, or says it was not found; editing stays in the Companies list's dialog.
 */
export function CompanyDetailPage() {
  const { id = '' } = useParams();
  const datasets = useDatasetsAll();
  const company = datasets.data?.find((dataset) => String(dataset.id) === id);
  usePageTitle(company ? ['Companies', company.name] : undefined);

  if (datasets.isPending) return <LoadingState label="Loading the company" />;
  if (!company) {
    return (
      <DetailLoadError
        record="company"
        error={datasets.isError ? datasets.error : null}
        backTo={companiesPath}
        backLabel="Back to Companies"
      />
    );
  }
  return (
    <Stack gap="lg">
      <Breadcrumbs>
        <Anchor component={Link} to={companiesPath}>
          Companies
        </Anchor>
        <Text span>{company.name}</Text>
      </Breadcrumbs>
      <PageHeader title={company.name} />
      <Alert color="gray" icon={<IconInfoCircle size={18} />} maw={640}>
        This page is a placeholder: edit the company from the Companies list.
      </Alert>
    </Stack>
  );
}
