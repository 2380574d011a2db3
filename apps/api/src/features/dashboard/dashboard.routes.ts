import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  dashboardFiguresQuery,
  dashboardFiguresSchema,
  dashboardTodoSchema,
} from '@ledgerline/contract';
import type { FeatureFlagStore } from '../../platform/feature-flags.js';
import { datasetScopeOf } from '../../platform/scope.js';
import { dashboardFigures } from '../reports/index.js';
import { todoItems } from './dashboard.service.js';

/** spec 1 §2.4 `GET dashboard/to-do` (path not shown; docs/api.md). */
export async function dashboardRoutes(app: FastifyInstance, options: { flags: FeatureFlagStore }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v0/dashboard/to-do',
    {
      config: { access: 'dataset' },
      schema: {
        tags: ['dashboard'],
        summary: "The dashboard's to-do list for the company",
        description:
          'Each item names the permission needed to fix it; the site shows its Fix button only to who holds it.',
        response: { 200: dashboardTodoSchema },
      },
    },
    async (request) => {
      const scope = datasetScopeOf(request);
      const flags = await options.flags.all();
      const items = await request.tenantRead((tx) =>
        todoItems(tx, scope, flags.NewAccessKeyPage === true),
      );
      return { items };
    },
  );

  r.get(
    '/api/v0/dashboard/figures',
    {
      config: { access: 'dataset' },
      schema: {
        tags: ['dashboard'],
        summary:
          "The dashboard's money figures: outstanding, overdue, DSO, failed, collected against falling due",
        description:
          'In `currency` (the company’s own by default), today (UTC): what the accounts owe and what of it is past ' +
          'due (the aged receivables’ totals on the DueDate basis), the invoices overdue, days sales outstanding ' +
          'by the countback method over at least twelve months, the payment attempts that failed (Failed, Rejected, ' +
          'NotAuthorised) in the period, and per calendar month of the last `months` (default 12) the money ' +
          'allocated (collected) and the invoices falling due.',
        querystring: dashboardFiguresQuery,
        response: { 200: dashboardFiguresSchema },
      },
    },
    // The money figures, beside the spec's to-do list.
    async (request) =>
      request.tenantRead((tx) => dashboardFigures(tx, datasetScopeOf(request), request.query)),
  );
}
