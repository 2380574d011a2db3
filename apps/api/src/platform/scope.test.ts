import { PgDialect } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { accounts, transactions } from '../db/schema-receivables.js';
import { datasetScopeOf, inDataset, inTenant, sameDataset } from './scope.js';

const dialect = new PgDialect();
const render = (condition: Parameters<PgDialect['sqlToQuery']>[0]) => dialect.sqlToQuery(condition);
const tenantId = '6f1c2a4e-0b7d-4c3a-9e8f-1a2b3c4d5e6f';

describe('one tenant scope', () => {
  it("narrows a table to the scope's tenant and company, both as bound values", () => {
    const query = render(inDataset(accounts, { tenantId, datasetId: 7 }));
    expect(query.sql).toBe('("accounts"."tenant_id" = $1 and "accounts"."dataset_id" = $2)');
    expect(query.params).toEqual([tenantId, 7]);
  });

  it('takes a prepared statement’s placeholders for the same filter', () => {
    const query = render(
      inDataset(accounts, {
        tenantId: sql.placeholder('tenantId'),
        datasetId: sql.placeholder('datasetId'),
      }),
    );
    expect(query.sql).toBe('("accounts"."tenant_id" = $1 and "accounts"."dataset_id" = $2)');
  });

  it('narrows to the tenant alone, and joins two tables on the same company', () => {
    expect(render(inTenant(accounts, { tenantId })).sql).toBe('"accounts"."tenant_id" = $1');
    expect(render(sameDataset(transactions, accounts)).sql).toBe(
      '("transactions"."tenant_id" = "accounts"."tenant_id" and "transactions"."dataset_id" = "accounts"."dataset_id")',
    );
  });

  it('refuses a call that reached a company route without its company', () => {
    const principal = { tenantId } as FastifyRequest['principal'];
    const request = { principal, datasetId: null, routeOptions: { url: '/api/v0/banks' } };
    expect(() => datasetScopeOf(request as unknown as FastifyRequest)).toThrow(
      "/api/v0/banks needs config.access 'dataset'.",
    );
    expect(datasetScopeOf({ ...request, datasetId: 3 } as unknown as FastifyRequest)).toEqual({
      tenantId,
      datasetId: 3,
    });
  });
});
