/*
 * Commas separate filter items (spec 2 §7), so a value that contains one needs an escape. Our rule
 * (spec 2 §7 is silent; our decision): inside a filter, write a comma as `\,` and a backslash as
 * `\\`. Any other backslash is an error rather than a literal, so every value has exactly one
 * spelling and escapeFilterValue/parseFilter round-trip.
 */
export const filterEscapeRule = "write a comma inside a value as '\\,' and a backslash as '\\\\'";

/** Splits filter text at commas that are not escaped; escapes stay in place for the value parser. */
export function splitFilterItems(text: string): string[] {
  const items: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\\')
      i++; // the escaped character never splits
    else if (char === ',') {
      items.push(text.slice(start, i));
      start = i + 1;
    }
  }
  items.push(text.slice(start));
  return items;
}

/** Undoes escapeFilterValue; undefined when the text holds a backslash that is not `\,` or `\\`. */
export function unescapeFilterValue(text: string): string | undefined {
  if (!text.includes('\\')) return text;
  let value = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char !== '\\') {
      value += char;
      continue;
    }
    const next = text[i + 1];
    if (next !== ',' && next !== '\\') return undefined;
    value += next;
    i++;
  }
  return value;
}

export function escapeFilterValue(value: string): string {
  return value.replace(/[\\,]/g, (char) => `\\${char}`);
}
