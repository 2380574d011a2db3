import { z } from 'zod';

/** Funding (spec 3 §2): where the Funding page's frame goes, from the operator's configuration. */
export const fundingSearchSchema = z
  .object({
    /** Capitalise's funding search with the partner's introducer key; null when none is set. */
    searchUrl: z.string().nullable(),
  })
  .meta({ id: 'FundingSearch' });
export type FundingSearch = z.infer<typeof fundingSearchSchema>;

export const fundingMessages = {
  notEnabled: 'Funding is not enabled for this site (the Capitalise feature flag is off).',
  // What the page says when the operator has not set the key.
  notConfigured:
    'The funding search is not set up on this server. An operator enables it by setting CAPITALISE_INTRODUCER_KEY to the introducer key Capitalise gave them (and CAPITALISE_URL for the demo host), then restarting Ledgerline.',
} as const;

/** reference/providers.md: the iframe address of Capitalise's funding search. */
export function capitaliseSearchUrl(baseUrl: string, introducerKey: string): string {
  const origin = baseUrl.replace(/\/+$/, '');
  return `${origin}/app/questionnaire/funding/search?introducer=${encodeURIComponent(introducerKey)}`;
}
