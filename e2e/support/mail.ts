import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The mail drop of a server without SMTP_URL: every message is an .eml file under <DATA_DIR>/mail.
// Just enough MIME to read the plain-text part of the server's own messages.

export interface DroppedMail {
  file: string;
  headers: Map<string, string>;
  /** The text/plain part, decoded. */
  text: string;
}

/** RFC 2045 quoted-printable: soft line breaks and =XX bytes, read as UTF-8. */
export function decodeQuotedPrintable(encoded: string): string {
  const joined = encoded.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function splitEntity(entity: string): { headers: Map<string, string>; body: string } {
  const normalised = entity.replace(/\r\n/g, '\n');
  const end = normalised.indexOf('\n\n');
  const head = end === -1 ? normalised : normalised.slice(0, end);
  const body = end === -1 ? '' : normalised.slice(end + 2);
  const headers = new Map<string, string>();
  // Folded header lines continue with whitespace.
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  if (encoding === 'base64')
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

function plainText(headers: Map<string, string>, body: string): string | null {
  const type = headers.get('content-type') ?? 'text/plain';
  if (/^multipart\//i.test(type)) {
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (!boundary) return null;
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break;
      const entity = splitEntity(part.replace(/^\n/, ''));
      const text = plainText(entity.headers, entity.body);
      if (text !== null) return text;
    }
    return null;
  }
  return /^text\/plain/i.test(type) ? decodeBody(headers, body) : null;
}

export function readMail(file: string): DroppedMail {
  const { headers, body } = splitEntity(readFileSync(file, 'utf8'));
  return { file, headers, text: plainText(headers, body) ?? '' };
}

/** Waits for a message to `to` in the mail drop and answers it. */
export async function waitForMail(
  dataDir: string,
  to: string,
  timeoutMs = 20_000,
): Promise<DroppedMail> {
  const folder = join(dataDir, 'mail');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(folder)) {
      for (const name of readdirSync(folder)
        .filter((file) => file.endsWith('.eml'))
        .sort()) {
        const mail = readMail(join(folder, name));
        const addressed = (mail.headers.get('to') ?? '').toLowerCase().includes(to.toLowerCase());
        // A file still being written has no complete text part yet.
        if (addressed && mail.text) return mail;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no mail to ${to} arrived in ${folder} within ${timeoutMs} ms`);
}
