import { convertHtml } from './html-to-text.js';

/** Output formats of `web_fetch`. */
export type WebFormat = 'markdown' | 'text' | 'html';

/** The media type (lower case, no parameters) and charset of a Content-Type header. */
export function parseContentType(header: string): { mediaType: string; charset: string | undefined } {
  const [type, ...parameters] = header.split(';');
  let charset: string | undefined;
  for (const parameter of parameters) {
    const [name, value] = parameter.split('=');
    if (name?.trim().toLowerCase() === 'charset' && value) charset = value.trim().replace(/^"|"$/g, '');
  }
  return { mediaType: (type ?? '').trim().toLowerCase(), charset };
}

/** The charset an HTML document declares in a `<meta>` tag within its first 2 KiB. */
export function metaCharset(body: Buffer): string | undefined {
  const head = body.subarray(0, 2048).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1];
}

/** Decodes a body with its declared charset, UTF-8 when absent or unknown. */
export function decodeBody(body: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** True for media types shown as text. */
export function isTextual(mediaType: string): boolean {
  return (
    mediaType.startsWith('text/') ||
    mediaType === 'application/json' ||
    mediaType.endsWith('+json') ||
    mediaType === 'application/xml' ||
    mediaType.endsWith('+xml') ||
    mediaType === 'application/javascript' ||
    mediaType === 'application/x-javascript' ||
    mediaType === 'application/yaml' ||
    mediaType === 'application/x-yaml' ||
    mediaType === 'application/x-ndjson'
  );
}

/** True for HTML documents. */
export function isHtml(mediaType: string): boolean {
  return mediaType === 'text/html' || mediaType === 'application/xhtml+xml';
}

/**
 * Readable text of an HTML document: markdown (links, headings, lists kept), plain text, or the
 * markup as is; the first `keep` characters of it and its whole length.
 */
export function htmlToReadable(
  html: string,
  format: WebFormat,
  keep: number,
): { text: string; length: number } {
  if (format === 'html') return { text: html.slice(0, keep), length: html.length };
  return convertHtml(html, format === 'markdown', keep);
}
