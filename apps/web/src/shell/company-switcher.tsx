import { Button, Text } from '@mantine/core';
import { IconBuilding, IconChevronDown } from '@tabler/icons-react';
import { useLocation } from 'react-router';
import { useDatasetsAll } from '@/lib/api/get-datasets-all';
import { useCompanyId } from '@/lib/company';
import { isCompanySwitcherHidden } from './company-path';
import { DeferredMenu } from './deferred-menu';

/** spec 1 §2.2: the company dropdown of the top bar; its list (company-switcher-items.tsx) loads on use. */
export function CompanySwitcher() {
  const { pathname } = useLocation();
  const companyId = useCompanyId();
  const datasets = useDatasetsAll();

  if (isCompanySwitcherHidden(pathname)) return null;

  const current = datasets.data?.find((dataset) => dataset.id === companyId);
  const shown = current?.name ?? (datasets.isPending ? 'Loading…' : 'Company');
  // Its name holds the words it shows (WCAG 2.5.3, axe label-content-name-mismatch), after what
  // the button is for.
  const name = shown === 'Company' ? shown : `Company: ${shown}`;

  return (
    <DeferredMenu
      target={
        <Button
          aria-label={name}
          variant="default"
          leftSection={<IconBuilding size={16} />}
          rightSection={<IconChevronDown size={14} />}
          maw={{ base: 140, sm: 280 }}
          miw={0}
          style={{ flexShrink: 1 }}
        >
          <Text span truncate="end" size="sm" fw={500}>
            {shown}
          </Text>
        </Button>
      }
      load={() => import('./company-switcher-items').then((module) => module.CompanyMenuLoaded)}
    />
  );
}
