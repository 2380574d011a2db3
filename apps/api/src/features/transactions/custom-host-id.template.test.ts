import fc from 'fast-check';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customHostIdFields, type CustomHostIdField } from '@ledgerline/contract';
import { customHostIdSql } from './custom-host-id.repository.js';
import {
  applyTemplate,
  parseTemplate,
  templateMessages,
  type Template,
  type TemplateValues,
} from './custom-host-id.template.js';

function parsed(source: string): Template {
  const result = parseTemplate(source);
  if (!result.ok) throw new Error(result.message);
  return result.template;
}

const example: TemplateValues = {
  transactionReference: 'INV-1',
  transactionSecondReference: null,
  orderReference: 'PO 7',
  transactionType: 'Invoice',
  currency: 'GBP',
  accountReference: 'ACME',
};

describe('parseTemplate', () => {
  it('reads fields, literal text and doubled braces', () => {
    expect(parsed('{accountReference}-{transactionReference}').parts).toEqual([
      { kind: 'field', field: 'accountReference' },
      { kind: 'text', text: '-' },
      { kind: 'field', field: 'transactionReference' },
    ]);
    expect(parsed('{{x}} { orderReference }').parts).toEqual([
      { kind: 'text', text: '{x} ' },
      { kind: 'field', field: 'orderReference' },
    ]);
  });

  it.each([
    ['{transactionReference', templateMessages.unclosed(1)],
    ['ab{transactionReference{orderReference}', templateMessages.unclosed(3)],
    ['{transactionReference}}', templateMessages.unopened(23)],
    ['x}{transactionReference}', templateMessages.unopened(2)],
    ['😀{}', templateMessages.empty(2)],
    ['{ }', templateMessages.empty(1)],
    ['{transactionReference}-{invoiceNumber}', templateMessages.unknown('invoiceNumber', 24)],
    ['{TransactionReference}', templateMessages.unknown('TransactionReference', 1)],
    ['INV-{{1}}', templateMessages.noField],
  ])('refuses %j with a message naming the problem', (source, message) => {
    expect(parseTemplate(source)).toEqual({ ok: false, message });
  });

  it('names the fields in the unknown-field message', () => {
    const result = parseTemplate('{nope}');
    expect(result.ok).toBe(false);
    if (!result.ok) for (const field of customHostIdFields) expect(result.message).toContain(field);
  });
});

describe('applyTemplate', () => {
  it('joins text and fields, a null or missing field as empty text', () => {
    expect(
      applyTemplate(
        parsed('{accountReference}/{transactionSecondReference}/{postingApplication}'),
        example,
        false,
      ),
    ).toBe('ACME//');
  });

  it('trims white space only when asked, and an empty result is null', () => {
    const template = parsed(' {orderReference}\t');
    expect(applyTemplate(template, example, true)).toBe('PO 7');
    expect(applyTemplate(template, example, false)).toBe(' PO 7\t');
    expect(applyTemplate(parsed('  {transactionSecondReference} '), example, true)).toBeNull();
    expect(applyTemplate(parsed('{transactionSecondReference}'), example, false)).toBeNull();
  });

  it('keeps at most 100 characters, counting an emoji as one, and trims what the cut leaves', () => {
    const long = { transactionReference: `${'😀'.repeat(99)} xyz` };
    expect(applyTemplate(parsed('{transactionReference}'), long, false)).toBe(
      `${'😀'.repeat(99)} `,
    );
    expect(applyTemplate(parsed('{transactionReference}'), long, true)).toBe('😀'.repeat(99));
  });
});

/** Any text PostgreSQL can store (no NUL), rich in braces, white space and astral characters. */
const text = fc
  .array(
    fc.oneof(
      fc.constantFrom('{', '}', '{{', '}}', ' ', '\t', '\n', '\u00a0', '😀', "'", '\\', '%', '$1'),
      fc.string({ unit: 'grapheme', maxLength: 6 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join('').replaceAll('\u0000', ''));
const field = fc.constantFrom(...customHostIdFields);
/** Valid templates, built from parts, with their source text. */
const templateSource = fc
  .array(
    fc.oneof(
      field.map((name) => `{${name}}`),
      text.map((literal) => literal.replaceAll('{', '{{').replaceAll('}', '}}')),
    ),
    { minLength: 1, maxLength: 6 },
  )
  .chain((parts) => field.map((name) => [...parts, `{${name}}`].join('')));
const values = fc.record(
  Object.fromEntries(
    customHostIdFields.map((name) => [name, fc.option(text, { nil: null })]),
  ) as Record<CustomHostIdField, fc.Arbitrary<string | null>>,
  { requiredKeys: [] },
);

describe('template properties', () => {
  it('parses every template built from fields and escaped text, and gives back the text', () => {
    fc.assert(
      fc.property(templateSource, (source) => {
        const result = parseTemplate(source);
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        // Re-escaping the parts gives back the source: nothing is lost or invented.
        const again = result.template.parts
          .map((part) =>
            part.kind === 'field'
              ? `{${part.field}}`
              : part.text.replaceAll('{', '{{').replaceAll('}', '}}'),
          )
          .join('');
        expect(again).toBe(source);
      }),
    );
  });

  it('never throws on any input, and answers a result of at most 100 characters', () => {
    fc.assert(
      fc.property(text, values, fc.boolean(), (source, fields, trim) => {
        const result = parseTemplate(source);
        if (!result.ok) return;
        const value = applyTemplate(result.template, fields, trim);
        expect(value === null || (value.length > 0 && Array.from(value).length <= 100)).toBe(true);
        if (trim && value)
          expect(value).toBe(value.replace(/^[ \t\n\r\v\f]+|[ \t\n\r\v\f]+$/g, ''));
      }),
    );
  });
});

// The rebuild computes the value in SQL; PostgreSQL must agree with applyTemplate on every input.
describe('the SQL of a template', () => {
  let client: PGlite;
  beforeAll(async () => {
    client = new PGlite();
    await client.waitReady;
  });
  afterAll(() => client.close());

  it('computes exactly what applyTemplate computes', async () => {
    const db = drizzle(client);
    await fc.assert(
      fc.asyncProperty(templateSource, values, fc.boolean(), async (source, fields, trim) => {
        const template = parsed(source);
        const expression = customHostIdSql(
          template,
          trim,
          (name) => sql`${fields[name] ?? null}::text`,
        );
        const result = await db.execute(sql`select ${expression} as value`);
        expect(result.rows[0]!.value).toBe(applyTemplate(template, fields, trim));
      }),
      { numRuns: 300 },
    );
  });
});
