import { QueryError, previewQueryItem } from './query-error.js';
import { queryLimits } from './query-limits.js';

/**
 * Parses the `expand` parameter: a comma list of lower-case names (spec 1 §7). Matching ignores
 * case and repeats, so `PaymentRequest,paymentrequest` expands once.
 */
export function parseExpand<E extends string>(
  query: { readonly expand: readonly E[] },
  text: string | undefined,
): E[] {
  const fail = (item: string, message: string) =>
    new QueryError({ parameter: 'expand', item: previewQueryItem(item), message });
  if (text !== undefined && text.length > queryLimits.expandTextMax) {
    throw fail(text, `The expand list is longer than ${queryLimits.expandTextMax} characters.`);
  }
  const expand: E[] = [];
  for (const item of (text ?? '').split(',')) {
    const name = item.trim();
    if (name === '') continue;
    const known = query.expand.find((allowed) => allowed === name.toLowerCase());
    if (known === undefined) {
      const allowed =
        query.expand.length === 0
          ? 'This list has nothing to expand.'
          : `Use ${query.expand.join(', ')}.`;
      throw fail(name, `Unknown expand '${previewQueryItem(name)}'. ${allowed}`);
    }
    if (!expand.includes(known)) expand.push(known);
  }
  return expand;
}
