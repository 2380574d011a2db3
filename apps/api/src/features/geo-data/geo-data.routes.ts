import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { iso31661, iso31662 } from 'iso-3166';
import {
  countriesSchema,
  countryIdParam,
  countrySchema,
  stateIdParam,
  stateSchema,
  statesSchema,
  type Country,
  type State,
} from '@ledgerline/contract';
import { NotFoundError } from '../../platform/errors.js';

/** ISO 3166-1 and 3166-2 from the maintained iso-3166 package (wooorm), read once. */
const countries: Country[] = iso31661
  .map((c) => ({
    id: Number(c.numeric),
    displayName: c.name,
    alpha2Code: c.alpha2,
    alpha3Code: c.alpha3,
  }))
  .sort((a, b) => a.displayName.localeCompare(b.displayName, 'en'));
const countryById = new Map(countries.map((c) => [c.id, c]));
const countryByAlpha2 = new Map(countries.map((c) => [c.alpha2Code, c]));
const states: State[] = iso31662
  .filter((s) => countryByAlpha2.has(s.parent))
  .map((s) => ({
    id: s.code,
    displayName: s.name,
    alpha2Code: s.parent,
    countryId: countryByAlpha2.get(s.parent)!.id,
  }))
  .sort((a, b) => a.displayName.localeCompare(b.displayName, 'en'));
const stateById = new Map(states.map((s) => [s.id, s]));

/** The ISO 3166-1 country with this numeric code (company preferences check a default country). */
export function findCountry(id: number): Country | undefined {
  return countryById.get(id);
}

const tags = ['geo-data'];
const countryNotFound = 'The country was not found.';

/** spec 3 §7 reference data: countries (id: ISO 3166-1 numeric) and their subdivisions (id: ISO 3166-2 code). */
export async function geoDataRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { access: 'tenant' } as const;

  r.get(
    '/api/v0/geo-data/countries',
    {
      config,
      schema: {
        tags,
        summary: 'Every ISO 3166-1 country, by name',
        response: { 200: countriesSchema },
      },
    },
    async () => ({
      items: countries,
    }),
  );

  r.get(
    '/api/v0/geo-data/countries/:id',
    {
      config,
      schema: {
        tags,
        summary: 'A country by its ISO 3166-1 numeric code',
        params: countryIdParam,
        response: { 200: countrySchema },
      },
    },
    async (request) => {
      const country = countryById.get(request.params.id);
      if (!country) throw new NotFoundError(countryNotFound);
      return country;
    },
  );

  r.get(
    '/api/v0/geo-data/countries/:id/states',
    {
      config,
      schema: {
        tags,
        summary: "A country's ISO 3166-2 subdivisions, by name",
        params: countryIdParam,
        response: { 200: statesSchema },
      },
    },
    async (request) => {
      const country = countryById.get(request.params.id);
      if (!country) throw new NotFoundError(countryNotFound);
      return { items: states.filter((s) => s.countryId === country.id) };
    },
  );

  r.get(
    '/api/v0/geo-data/states/:id',
    {
      config,
      schema: {
        tags,
        summary: 'A subdivision by its ISO 3166-2 code (GB-ENG)',
        params: stateIdParam,
        response: { 200: stateSchema },
      },
    },
    async (request) => {
      const state = stateById.get(request.params.id);
      if (!state) throw new NotFoundError('The state was not found.');
      return state;
    },
  );
}
