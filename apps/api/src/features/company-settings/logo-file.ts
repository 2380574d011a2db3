import createDOMPurify from 'dompurify';
import { fileTypeFromBuffer } from 'file-type';
import { JSDOM } from 'jsdom';
import type { logoTypes } from '@ledgerline/contract';

type LogoType = (typeof logoTypes)[number];

const purify = createDOMPurify(new JSDOM('').window);
// No script, no external reference: links and images may point only inside the file.
purify.addHook('uponSanitizeAttribute', (_node, data) => {
  const name = data.attrName.toLowerCase();
  const value = data.attrValue.trim();
  if ((name === 'href' || name === 'xlink:href' || name === 'src') && !value.startsWith('#'))
    data.keepAttr = false;
  if (/url\s*\(\s*['"]?\s*(?!#)/i.test(value)) data.keepAttr = false;
  if (name.startsWith('on')) data.keepAttr = false;
});
const forbidden = [
  'script',
  'style',
  'foreignObject',
  'image',
  'a',
  'iframe',
  'object',
  'embed',
  'audio',
  'video',
];

/** The leading XML declaration, comments and doctype, which may come before an SVG's root. */
const prolog = /^(\uFEFF)?(\s|<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>)*/i;

function utf8(data: Buffer): string | null {
  if (data.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return null;
  }
}

/**
 * The logo as it is stored and served: JPEG and PNG recognised from their bytes (file-type), an
 * SVG recognised by its root element and rewritten by DOMPurify without scripts, event handlers,
 * styles, foreign content or references outside the file. Null: not one of the three.
 */
export async function readLogo(data: Buffer): Promise<{ fileType: LogoType; data: Buffer } | null> {
  const sniffed = await fileTypeFromBuffer(data);
  // file-type calls any text starting with an XML declaration application/xml.
  if (sniffed && sniffed.mime !== 'application/xml') {
    return sniffed.mime === 'image/jpeg' || sniffed.mime === 'image/png'
      ? { fileType: sniffed.mime, data }
      : null;
  }
  const text = utf8(data);
  if (text === null) return null;
  const body = text.replace(prolog, '');
  if (!/^<svg[\s>]/i.test(body)) return null;
  const clean = purify.sanitize(body, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: forbidden,
    FORBID_ATTR: ['style'],
  });
  if (!/^<svg[\s>]/i.test(clean)) return null;
  const withNamespace = /^<svg[^>]*\sxmlns=/i.test(clean)
    ? clean
    : clean.replace(/^<svg/i, '<svg xmlns="http://www.w3.org/2000/svg"');
  return { fileType: 'image/svg+xml', data: Buffer.from(withNamespace, 'utf8') };
}
