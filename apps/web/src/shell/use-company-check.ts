import { defaultDatasetId } from '@ledgerline/contract';
import { useEffect } from 'react';
import { useDatasetExists } from '@/features/datasets/api/get-dataset-exists';
import { useCompanyId } from '@/lib/company';
import { setCompanyId } from '@/lib/storage';

/**
 * spec 1 §4: the stored company is checked at start; when it no longer exists (404) the stored
 * id resets to 1. Ready once the company to use is known to exist.
 */
export function useCompanyCheck(): { companyId: number; ready: boolean } {
  const companyId = useCompanyId();
  const { data: exists } = useDatasetExists(companyId);
  const missing = exists === false && companyId !== defaultDatasetId;

  useEffect(() => {
    if (missing) setCompanyId(defaultDatasetId);
  }, [missing]);

  return { companyId, ready: exists === true || (exists === false && !missing) };
}
