import { countrySchema, fallbackCountry, type Country } from '@ledgerline/contract';
import type { UseFormReturnType } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { tenantClient } from '../http';
import { tenantQueryKeys } from '../query-keys';
import { companyPreferencesQueryOptions } from './company-preferences';

/**
 * The company's default country (spec 3 §3 company preferences `defaultCountryId`, GB when none is
 * saved), through spec 3 §7 GET geo-data/countries/{id}: the initial value wherever a country is
 * chosen (company details, billing contacts). Null while it loads or when it cannot be read: the
 * forms then start empty, as before, with no error page.
 */
export function useDefaultCountry(): Country | null {
  const preferences = useQuery({
    ...companyPreferencesQueryOptions(),
    meta: { statusRouting: false },
  });
  const id =
    preferences.data?.defaultCountryId ?? (preferences.isError ? fallbackCountry.id : null);
  const country = useQuery({
    queryKey: [...tenantQueryKeys('geo-data').all(), 'countries', id],
    queryFn: ({ signal }) =>
      tenantClient.get(`/geo-data/countries/${id}`, { schema: countrySchema, signal }),
    enabled: id !== null,
    staleTime: Infinity,
    meta: { statusRouting: false },
  });
  return country.data ?? null;
}

/**
 * Starts an empty, untouched country field of `form` at the company's default country once it is
 * known (spec 3 §3). A country the record already has, or one the user changed
 * or cleared, is left alone.
 */
export function useDefaultCountryIn<Values>(form: UseFormReturnType<Values>, path: string): void {
  const country = useDefaultCountry();
  const { setFieldValue, getInputProps, isTouched } = form;
  useEffect(() => {
    if (!country) return;
    if (getInputProps(path).value === '' && !isTouched(path))
      setFieldValue(path as never, country.displayName as never);
    // Once, when the default arrives: later changes are the user's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [country]);
}
