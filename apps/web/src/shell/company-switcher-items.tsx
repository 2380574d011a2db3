import { isWorkingDatasetStatus, type Dataset } from '@ledgerline/contract';
import { Box, Loader, Menu, Text } from '@mantine/core';
import { IconCheck, IconPencil } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { useCurrentUser } from '@/auth/api/get-me';
import { useDatasetsAll } from '@/lib/api/get-datasets-all';
import { assignLocation, reloadPage } from '@/lib/browser-location';
import { useCompanyId } from '@/lib/company';
import { useFeatureFlags } from '@/lib/feature-flags';
import { checkPermission } from '@/lib/permissions';
import { setCompanyId } from '@/lib/storage';
import { useAreaRoutes } from './area-routes-context';
import { parentPathIfRecord } from './company-path';
import type { LoadedMenuProps } from './deferred-menu';

const companiesPath = '/settings/companies';

/** spec 1 §4: working states show a spinner, Error shows red; neither can be chosen. */
function isSelectable(dataset: Dataset): boolean {
  return dataset.status !== 'Error' && !isWorkingDatasetStatus(dataset.status);
}

function DatasetIcon({ dataset, current }: { dataset: Dataset; current: boolean }) {
  if (isWorkingDatasetStatus(dataset.status))
    return <Loader size={14} role="img" aria-label="Working" />;
  if (current) return <IconCheck size={14} aria-label="Current company" />;
  return <Box w={14} />;
}

/** spec 1 §2.2: the company dropdown's list (company-switcher.tsx shows its button). */
export function CompanyMenuLoaded({ target, defaultOpened }: LoadedMenuProps) {
  const { pathname } = useLocation();
  const companyId = useCompanyId();
  const datasets = useDatasetsAll();
  const flags = useFeatureFlags();
  const { data: user } = useCurrentUser();
  const { byPath } = useAreaRoutes();

  const canEditCompanies =
    byPath.has(companiesPath) && checkPermission('EditCompanies', user?.permissions ?? [], flags);

  const choose = (dataset: Dataset) => {
    if (dataset.id === companyId || !isSelectable(dataset)) return;
    setCompanyId(dataset.id);
    const parent = parentPathIfRecord(pathname);
    if (parent) assignLocation(parent);
    else reloadPage();
  };

  return (
    <Menu position="bottom-end" width={300} shadow="md" defaultOpened={defaultOpened}>
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Companies</Menu.Label>
        {datasets.data?.map((dataset) => {
          const isCurrent = dataset.id === companyId;
          const isError = dataset.status === 'Error';
          const showStatus = isError || isWorkingDatasetStatus(dataset.status);
          return (
            <Menu.Item
              key={dataset.id}
              disabled={!isSelectable(dataset)}
              color={isError ? 'red' : undefined}
              c={isError ? 'red' : undefined}
              aria-current={isCurrent ? 'true' : undefined}
              leftSection={<DatasetIcon dataset={dataset} current={isCurrent} />}
              rightSection={
                showStatus ? (
                  <Text size="xs" c={isError ? 'red' : 'dimmed'}>
                    {dataset.status}
                  </Text>
                ) : undefined
              }
              fw={isCurrent ? 600 : undefined}
              onClick={() => choose(dataset)}
            >
              {dataset.name}
            </Menu.Item>
          );
        })}
        {datasets.isPending && (
          <Menu.Item disabled leftSection={<Loader size={14} />}>
            Loading companies
          </Menu.Item>
        )}
        <Menu.Divider />
        {canEditCompanies ? (
          <Menu.Item component={Link} to={companiesPath} leftSection={<IconPencil size={14} />}>
            Edit Companies
          </Menu.Item>
        ) : (
          <Menu.Item disabled leftSection={<IconPencil size={14} />}>
            Edit Companies
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
