import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { capitaliseSearchUrl, fundingMessages, fundingSearchSchema } from '@ledgerline/contract';
import { NotFoundError } from '../../platform/errors.js';
import type { FeatureFlagStore } from '../../platform/feature-flags.js';

export interface FundingRoutesOptions {
  flags: FeatureFlagStore;
  capitalise: { url: string; introducerKey: string | undefined };
}

/**
 * spec 3 §2 Funding: the address of Capitalise's funding search for the page's frame
 * (reference/providers.md). Capitalise has no server API for it: the frame is the integration,
 * so Ledgerline calls nothing and only hands the site the address with the introducer key.
 */
export async function fundingRoutes(app: FastifyInstance, options: FundingRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { capitalise } = options;
  r.get(
    '/api/v0/funding/search',
    {
      config: { access: 'tenant' },
      schema: {
        tags: ['funding'],
        summary: "The address of Capitalise's funding search for the Funding page's frame",
        description:
          '404 while the Capitalise feature flag is off; searchUrl null when CAPITALISE_INTRODUCER_KEY is not set.',
        response: { 200: fundingSearchSchema },
      },
    },
    async () => {
      const flags = await options.flags.all();
      if (!flags.Capitalise) throw new NotFoundError(fundingMessages.notEnabled);
      return {
        searchUrl: capitalise.introducerKey
          ? capitaliseSearchUrl(capitalise.url, capitalise.introducerKey)
          : null,
      };
    },
  );
}
