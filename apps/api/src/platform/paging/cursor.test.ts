import type { SQL } from 'drizzle-orm';
import { PgDialect, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { QueryError } from '@ledgerline/contract';
import type { QuerySort } from '@ledgerline/contract';
import {
  compileCursorQuery,
  decodeCursor,
  encodeCursor,
  keysetPredicate,
  toCursorPage,
} from './cursor.js';

const dialect = new PgDialect();
const render = (query: SQL) => dialect.sqlToQuery(query);
const table = pgTable('tx', {
  id: uuid('id').primaryKey(),
  at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
  name: text('name').notNull(),
});
const columns = { at: table.at, name: table.name };
const newestFirst: QuerySort[] = [{ field: 'at', direction: 'desc' }];
const id = '0190c3a4-7b1e-7c00-8000-00000000000a';

function cursorError(run: () => unknown): QueryError {
  try {
    run();
  } catch (error) {
    if (error instanceof QueryError) return error;
    throw error;
  }
  throw new Error('no error');
}

describe('cursor encoding', () => {
  it('round-trips the key, with dates as ISO strings, in base64url', () => {
    const cursor = encodeCursor(newestFirst, [new Date('2024-02-29T13:45:07.123Z'), id]);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, newestFirst)).toEqual(['2024-02-29T13:45:07.123Z', id]);
  });

  it('refuses cursors that are not ours, are damaged or were made for another sort', () => {
    const cursor = encodeCursor(newestFirst, ['2024-01-01T00:00:00.000Z', id]);
    const bad = [
      'not-a-cursor',
      Buffer.from('[1,2]').toString('base64url'),
      Buffer.from('null').toString('base64url'),
      Buffer.from(JSON.stringify({ s: '-at', k: ['x'] })).toString('base64url'),
      Buffer.from(JSON.stringify({ s: '-at', k: [{}, id] })).toString('base64url'),
      Buffer.from(JSON.stringify({ s: '-at', k: [null, id] })).toString('base64url'),
      cursor.slice(0, -3),
    ];
    for (const text of bad) {
      expect(cursorError(() => decodeCursor(text, newestFirst))).toMatchObject({
        parameter: 'cursor',
        message: "The cursor is not valid; send the 'next' value of the previous page unchanged.",
      });
    }
    expect(
      cursorError(() => decodeCursor(cursor, [{ field: 'at', direction: 'asc' }])).parameter,
    ).toBe('cursor');
  });

  it('refuses to make a cursor from a NULL key, which no row comparison could continue from', () => {
    const key = [null, id] as unknown as string[];
    expect(() => encodeCursor(newestFirst, key)).toThrow('A cursor key cannot hold NULL');
  });
});

describe('keysetPredicate', () => {
  it('is one row comparison when every term runs the same way', () => {
    expect(
      render(keysetPredicate(newestFirst, columns, table.id, ['2024-01-01T00:00:00.000Z', id])),
    ).toMatchObject({
      sql: '("tx"."at", "tx"."id") < ($1, $2)',
      params: ['2024-01-01T00:00:00.000Z', id],
    });
    const ascending: QuerySort[] = [{ field: 'name', direction: 'asc' }];
    expect(render(keysetPredicate(ascending, columns, table.id, ['Acme', id])).sql).toBe(
      '("tx"."name", "tx"."id") > ($1, $2)',
    );
  });

  it('expands mixed directions into an OR of prefixes', () => {
    const mixed: QuerySort[] = [
      { field: 'name', direction: 'asc' },
      { field: 'at', direction: 'desc' },
    ];
    expect(
      render(keysetPredicate(mixed, columns, table.id, ['Acme', '2024-01-01T00:00:00.000Z', id])),
    ).toMatchObject({
      sql:
        '(("tx"."name" > $1 or ("tx"."name" = $2 and "tx"."at" < $3) or ' +
        '("tx"."name" = $4 and "tx"."at" = $5 and "tx"."id" < $6)))',
      params: ['Acme', 'Acme', '2024-01-01T00:00:00.000Z', 'Acme', '2024-01-01T00:00:00.000Z', id],
    });
  });
});

describe('compileCursorQuery and toCursorPage', () => {
  const options = { columns, tieBreaker: table.id };

  it('asks for one extra row and adds the keyset after the filters', () => {
    const first = compileCursorQuery(
      { cursor: undefined, itemsPerPage: 2, sort: newestFirst, filters: [] },
      options,
    );
    expect(first.where).toBeUndefined();
    expect(first.limit).toBe(3);
    const cursor = encodeCursor(newestFirst, ['2024-01-01T00:00:00.000Z', id]);
    const next = compileCursorQuery(
      {
        cursor,
        itemsPerPage: 2,
        sort: newestFirst,
        filters: [{ field: 'name', type: 'string', operator: 'eq', value: 'Acme' }],
      },
      options,
    );
    expect(render(next.where!).sql).toBe(
      '(lower("tx"."name") = lower($1::text) and ("tx"."at", "tx"."id") < ($2, $3))',
    );
  });

  it('makes next only when the extra row came back', () => {
    const rows = [
      { at: new Date('2024-01-03T00:00:00Z'), id: 'c' },
      { at: new Date('2024-01-02T00:00:00Z'), id: 'b' },
      { at: new Date('2024-01-01T00:00:00Z'), id: 'a' },
    ];
    const query = { itemsPerPage: 2, sort: newestFirst };
    const page = toCursorPage(rows, query, (row) => [row.at, row.id]);
    expect(page.items).toEqual(rows.slice(0, 2));
    expect(decodeCursor(page.next!, newestFirst)).toEqual(['2024-01-02T00:00:00.000Z', 'b']);
    expect(toCursorPage(rows.slice(0, 2), query, (row) => [row.at, row.id]).next).toBeNull();
  });
});
