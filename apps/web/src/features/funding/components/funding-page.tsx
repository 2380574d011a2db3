import { fundingMessages } from '@ledgerline/contract';
import { Alert, Box, Stack } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { LoadingState } from '@/ui/loading-state';
import { PageHeader } from '@/ui/page-header';
import { useFundingSearch } from '../api/get-funding-search';

/**
 * spec 3 §2 Funding (Capitalise flag, no container): Capitalise's funding search for UK
 * companies in a frame. It cannot be pre-filled (reference/providers.md).
 */
export function FundingPage() {
  const search = useFundingSearch();
  return (
    <Stack>
      <PageHeader
        title="Funding Search"
        description="Find business funding through Capitalise, a funding search for UK companies. What you enter there goes to Capitalise, not to Ledgerline."
      />
      {search.isPending ? (
        <LoadingState label="Loading the funding search" />
      ) : search.data?.searchUrl ? (
        <Box
          component="iframe"
          title="Capitalise funding search"
          src={search.data.searchUrl}
          w="100%"
          h="calc(100vh - 200px)"
          mih={600}
          style={{ border: 0 }}
        />
      ) : (
        <Alert
          color="blue"
          icon={<IconInfoCircle size={16} />}
          title="Funding search is not set up"
        >
          {fundingMessages.notConfigured}
        </Alert>
      )}
    </Stack>
  );
}
