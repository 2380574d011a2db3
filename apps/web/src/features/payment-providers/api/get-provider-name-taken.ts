import { escapeFilterValue, pageOf, paymentProviderSummarySchema } from '@ledgerline/contract';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentProviderKeys } from './payment-provider-keys';

const lookupResponse = pageOf(paymentProviderSummarySchema);

/** How long the Name field waits after the last key before it asks. */
export const nameLookupDelayMs = 400;

/**
 * spec 3 §5 "A payment provider name must be unique (a lookup checks whether a name exists)":
 * spec 3 §7 `GET providers` with the filter `name eq {name}` (the server compares without case, as
 * its uniqueness rule does). True when another configuration of the company has the name.
 */
export async function isProviderNameTaken(
  name: string,
  exceptId: string | null,
  signal?: AbortSignal,
): Promise<boolean> {
  const page = await companyClient.get('/providers', {
    query: { filter: `name eq ${escapeFilterValue(name)}`, itemsPerPage: 2 },
    schema: lookupResponse,
    signal,
  });
  return page.items.some((item) => item.id !== exceptId);
}

/**
 * Whether the name being typed is already another configuration's, asked once typing pauses. Null
 * while there is nothing to ask or no answer yet; a failed lookup says nothing (the save still
 * answers 409 for a taken name).
 */
export function useProviderNameTaken(name: string, exceptId: string | null): boolean | null {
  const [typed] = useDebouncedValue(name.trim(), nameLookupDelayMs);
  const { data } = useQuery({
    queryKey: [...paymentProviderKeys().all(), 'name-taken', typed.toLowerCase(), exceptId],
    queryFn: ({ signal }) => isProviderNameTaken(typed, exceptId, signal),
    enabled: typed !== '',
    meta: { inlineErrors: true },
    retry: false,
  });
  return typed === '' ? null : (data ?? null);
}
