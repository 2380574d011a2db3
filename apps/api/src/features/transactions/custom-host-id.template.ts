import {
  customHostIdFields,
  transactionLimits,
  type CustomHostIdField,
} from '@ledgerline/contract';

/**
 * The parse value of the custom host id setting (spec 3 §5 leaves its language open; ours is in
 * docs/decisions/027-custom-host-id.md, "Custom host id"): literal text with `{field}` placeholders naming fields of
 * the accounting transaction, `{{` and `}}` for literal braces. Pure: the connector's push and the
 * example call apply it here; the rebuild turns the same parsed template into SQL.
 */
export type TemplatePart =
  { kind: 'text'; text: string } | { kind: 'field'; field: CustomHostIdField };

export interface Template {
  parts: readonly TemplatePart[];
}

export type ParseResult = { ok: true; template: Template } | { ok: false; message: string };

/** The values a template reads; a missing or null field reads as empty text. */
export type TemplateValues = Partial<Record<CustomHostIdField, string | null | undefined>>;

/**
 * What trimWhiteSpace removes from both ends: the ASCII white space that both JavaScript and
 * PostgreSQL's btrim can name exactly, so the push and the rebuild always agree.
 */
export const trimmedCharacters = ' \t\n\r\v\f';
const trimPattern = /^[ \t\n\r\v\f]+|[ \t\n\r\v\f]+$/g;

const known: ReadonlySet<string> = new Set(customHostIdFields);
const fieldList = customHostIdFields.join(', ');

export const templateMessages = {
  unclosed: (position: number) =>
    `Parse value has a '{' at position ${position} that is never closed: close the field with '}', or write '{{' for a literal '{'.`,
  unopened: (position: number) =>
    `Parse value has a '}' at position ${position} that closes nothing: write '}}' for a literal '}'.`,
  empty: (position: number) =>
    `Parse value has an empty field '{}' at position ${position}: name a field, e.g. {transactionReference}.`,
  unknown: (name: string, position: number) =>
    `Parse value names an unknown field '{${name}}' at position ${position}. Fields: ${fieldList}.`,
  noField: `Parse value must contain at least one field, e.g. {transactionReference}. Fields: ${fieldList}.`,
} as const;

/** Parses a parse value; positions in messages count characters from 1. */
export function parseTemplate(source: string): ParseResult {
  const parts: TemplatePart[] = [];
  let text = '';
  let index = 0;
  // Positions count characters (code points), as a person reads them, not UTF-16 units.
  const at = (unitIndex: number) => Array.from(source.slice(0, unitIndex)).length + 1;
  const flush = () => {
    if (text) parts.push({ kind: 'text', text });
    text = '';
  };
  while (index < source.length) {
    const char = source[index]!;
    const next = source[index + 1];
    if (char === '{' && next === '{') {
      text += '{';
      index += 2;
    } else if (char === '}' && next === '}') {
      text += '}';
      index += 2;
    } else if (char === '}') {
      return { ok: false, message: templateMessages.unopened(at(index)) };
    } else if (char === '{') {
      const close = source.indexOf('}', index + 1);
      const reopen = source.indexOf('{', index + 1);
      if (close === -1 || (reopen !== -1 && reopen < close))
        return { ok: false, message: templateMessages.unclosed(at(index)) };
      const name = source.slice(index + 1, close).trim();
      if (!name) return { ok: false, message: templateMessages.empty(at(index)) };
      if (!known.has(name))
        return { ok: false, message: templateMessages.unknown(name, at(index)) };
      flush();
      parts.push({ kind: 'field', field: name as CustomHostIdField });
      index = close + 1;
    } else {
      text += char;
      index += 1;
    }
  }
  flush();
  if (!parts.some((part) => part.kind === 'field'))
    return { ok: false, message: templateMessages.noField };
  return { ok: true, template: { parts } };
}

/**
 * The custom host id a template gives a transaction: the parts joined (a null field is empty),
 * trimmed when asked, cut to the custom host id limit (100 characters, counted as PostgreSQL's
 * left() counts them) and trimmed again; nothing left is null.
 */
export function applyTemplate(
  template: Template,
  values: TemplateValues,
  trimWhiteSpace: boolean,
): string | null {
  let result = template.parts
    .map((part) => (part.kind === 'text' ? part.text : (values[part.field] ?? '')))
    .join('');
  if (trimWhiteSpace) result = result.replace(trimPattern, '');
  const characters = Array.from(result);
  if (characters.length > transactionLimits.customHostId) {
    result = characters.slice(0, transactionLimits.customHostId).join('');
    if (trimWhiteSpace) result = result.replace(trimPattern, '');
  }
  return result === '' ? null : result;
}
