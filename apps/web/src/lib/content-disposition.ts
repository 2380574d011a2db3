/**
 * The file name of a Content-Disposition header (RFC 6266): the RFC 5987 `filename*` (percent-encoded
 * in a named charset, `filename*=UTF-8''na%C3%AFve.pdf`) wins over the plain `filename` (a token or
 * a quoted string); null when the header names none. Any folder part is dropped: the name is only
 * ever a suggestion for the browser's save.
 */
export function fileNameOfContentDisposition(header: string | null | undefined): string | null {
  if (!header) return null;
  const parameters = dispositionParameters(header);
  const extended = parameters.get('filename*');
  const decoded = extended === undefined ? null : decodeExtendedValue(extended);
  const name = decoded ?? parameters.get('filename') ?? null;
  return name === null ? null : baseName(name);
}

/** The header's parameters by lower-case name, quoted strings unquoted. */
function dispositionParameters(header: string): Map<string, string> {
  const parameters = new Map<string, string>();
  // A parameter: name = token, or name = "quoted string" with backslash escapes.
  const pattern = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (const match of header.matchAll(pattern)) {
    const name = match[1]!.toLowerCase();
    const value = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3]!.trim();
    if (!parameters.has(name)) parameters.set(name, value);
  }
  return parameters;
}

/** RFC 5987 ext-value: charset'language'percent-encoded bytes; UTF-8 and ISO-8859-1 are read. */
function decodeExtendedValue(value: string): string | null {
  const match = /^([^']*)'[^']*'(.*)$/.exec(value);
  if (!match) return null;
  const charset = match[1]!.toLowerCase();
  const encoded = match[2]!;
  try {
    if (charset === 'utf-8') return decodeURIComponent(encoded);
    if (charset === 'iso-8859-1') {
      return encoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
  } catch {
    // A malformed escape: the plain filename, if any, is used instead.
  }
  return null;
}

function baseName(name: string): string | null {
  const last = name.split(/[\\/]/).pop()?.trim() ?? '';
  return last === '' ? null : last;
}
