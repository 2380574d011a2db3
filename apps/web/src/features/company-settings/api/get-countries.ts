import { countriesSchema, statesSchema } from '@ledgerline/contract';
import { useQuery } from '@tanstack/react-query';
import { tenantClient } from '@/lib/http';
import { tenantQueryKeys } from '@/lib/query-keys';

/** spec 3 §7 GET geo-data/countries: reference data, the same for every company. */
export function useCountries() {
  return useQuery({
    queryKey: [...tenantQueryKeys('geo-data').all(), 'countries'],
    queryFn: ({ signal }) =>
      tenantClient.get('/geo-data/countries', { schema: countriesSchema, signal }),
    staleTime: Infinity,
  });
}

/** spec 3 §7 GET geo-data/countries/{id}/states. */
export function useStates(countryId: number | null) {
  return useQuery({
    queryKey: [...tenantQueryKeys('geo-data').all(), 'countries', countryId, 'states'],
    queryFn: ({ signal }) =>
      tenantClient.get(`/geo-data/countries/${countryId}/states`, { schema: statesSchema, signal }),
    enabled: countryId !== null,
    staleTime: Infinity,
  });
}
