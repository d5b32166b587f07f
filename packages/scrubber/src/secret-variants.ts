// The encodings a tool is likely to echo a secret in.

const encoder = new TextEncoder();
const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function base64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] as number;
    const b = bytes[i + 1] ?? 0;
    const c = bytes[i + 2] ?? 0;
    const triple = (a << 16) | (b << 8) | c;
    out += BASE64_ALPHABET[(triple >> 18) & 63];
    out += BASE64_ALPHABET[(triple >> 12) & 63];
    if (i + 1 < bytes.length) out += BASE64_ALPHABET[(triple >> 6) & 63];
    if (i + 2 < bytes.length) out += BASE64_ALPHABET[triple & 63];
  }
  return out;
}

/**
 * The base64 characters that depend only on the secret's bytes when the secret sits at byte
 * offset 0, 1 or 2 of a longer base64-encoded payload. Characters that mix in bits of the
 * neighbouring bytes are left out, so each core is found inside any enclosing base64 text.
 */
export function base64Cores(secret: string): string[] {
  const bytes = encoder.encode(secret);
  const cores: string[] = [];
  for (let lead = 0; lead < 3; lead++) {
    const padded = new Uint8Array(lead + bytes.length);
    padded.set(bytes, lead);
    const encoded = base64(padded);
    const from = Math.ceil((lead * 8) / 6);
    const to = Math.floor(((lead + bytes.length) * 8) / 6);
    cores.push(encoded.slice(from, to));
  }
  return cores;
}

/** A variant of a secret and how it was encoded. */
export interface SecretVariant {
  readonly literal: string;
  readonly encoding: 'raw' | 'json' | 'url' | 'form' | 'base64' | 'base64url' | 'hex' | 'utf8-bytes';
}

const HEX_DIGITS = '0123456789abcdef';

function hex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += HEX_DIGITS[byte >> 4] + (HEX_DIGITS[byte & 15] as string);
  return out;
}

/**
 * The secret as-is, JSON-escaped, URL-encoded (component and form), its base64/base64url
 * cores at the three byte alignments, and its UTF-8 bytes in hex (lower and upper case). A
 * non-ASCII secret also gets its UTF-8 bytes read as Latin-1 (what percent-decoded bytes and
 * mis-decoded output show). Duplicates and variants shorter than `minLength` are dropped (a
 * short base64 core would match random base64 text). Percent-encoding beyond
 * `encodeURIComponent` (every byte escaped, lower-case escapes) is read by decoding, not listed.
 */
export function secretVariants(secret: string, minLength: number): SecretVariant[] {
  const variants: SecretVariant[] = [];
  const seen = new Set<string>();
  const add = (literal: string, encoding: SecretVariant['encoding']): void => {
    if (literal.length < minLength || seen.has(literal)) return;
    seen.add(literal);
    variants.push({ literal, encoding });
  };
  add(secret, 'raw');
  const bytes = encoder.encode(secret);
  if (bytes.length !== secret.length) {
    let latin1 = '';
    for (const byte of bytes) latin1 += String.fromCharCode(byte);
    add(latin1, 'utf8-bytes');
  }
  add(JSON.stringify(secret).slice(1, -1), 'json');
  const component = encodeURIComponent(secret);
  add(component, 'url');
  add(component.replace(/%20/g, '+'), 'form');
  for (const core of base64Cores(secret)) {
    add(core, 'base64');
    add(core.replace(/\+/g, '-').replace(/\//g, '_'), 'base64url');
  }
  // Hex only for values of `minLength` and more: the hex of a shorter one is too little to be specific.
  if (secret.length >= minLength) {
    const lowerHex = hex(bytes);
    add(lowerHex, 'hex');
    add(lowerHex.toUpperCase(), 'hex');
  }
  return variants;
}
