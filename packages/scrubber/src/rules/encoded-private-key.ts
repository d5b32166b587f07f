import { ALPHABETS, isBase64Code } from '../alphabets.js';
import type { RuleMatch, SecretRule } from '../types.js';

// A PEM private key that was base64-encoded whole: kubeconfig `client-key-data`, a Kubernetes
// Secret's `tls.key`, Helm values. The encoding of `-----BEGIN ` starts every such value (it is
// the first thing encoded), so the rule is anchored on it, decodes the header to tell a private
// key from a certificate or public key, and redacts the base64 run. The anchor leaves out the
// leading `L` (whose encoding depends on what precedes it).

/** `-----BEGIN ` in base64. */
const ENCODED_BEGIN = 'LS0tLS1CRUdJTi';
/** The longest encoded key redacted (an RSA 8192-bit key in PEM is about 6.5 KB, 8.7 KB encoded). */
const MAX_ENCODED = 16_384;
const HEADER = /^-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----/;

function matchEncodedPrivateKey(text: string, start: number): RuleMatch | undefined {
  if (start > 0 && isBase64Code(text.charCodeAt(start - 1))) return undefined;
  let end = start;
  while (end < text.length && end - start <= MAX_ENCODED && isBase64Code(text.charCodeAt(end))) end++;
  if (end - start > MAX_ENCODED) return undefined;
  // The header is in the first 64 characters (48 bytes) of the encoding.
  const length = Math.min(end - start, 64) & ~3;
  let header: string;
  try {
    header = atob(text.slice(start, start + length));
  } catch {
    return undefined; // `=` inside: not one base64 value
  }
  return HEADER.test(header) ? { start, end } : undefined;
}

/** PEM private keys encoded in base64 whole (kubeconfig client-key-data, Kubernetes Secrets). */
export const encodedPrivateKey: SecretRule = {
  id: 'private_key_base64',
  description:
    'PEM private keys encoded in base64 whole (kubeconfig client-key-data, Kubernetes Secret tls.key); certificates and public keys are left alone',
  anchors: [ENCODED_BEGIN.slice(1)],
  match: (text, anchor) => {
    if (text.charCodeAt(anchor - 1) !== 76) return undefined; // the `L`
    const match = matchEncodedPrivateKey(text, anchor - 1);
    return match === undefined ? undefined : { ...match, kind: 'private_key' };
  },
  maxLength: MAX_ENCODED,
  positives: (fake) => {
    const lines = Array.from({ length: 6 }, () => fake.chars(ALPHABETS.base64, 64));
    const encoded = Buffer.from(
      `-----BEGIN RSA PRIVATE KEY-----\n${lines.join('\n')}\n-----END RSA PRIVATE KEY-----\n`,
    ).toString('base64');
    return [
      { text: `    client-key-data: ${encoded}\n`, secret: encoded, kind: 'private_key' },
      { text: `{"data":{"tls.key":"${encoded}"}}`, secret: encoded, kind: 'private_key' },
    ];
  },
  negatives: (fake) => [
    `client-certificate-data: ${Buffer.from(`-----BEGIN CERTIFICATE-----\n${fake.base64(96)}\n-----END CERTIFICATE-----\n`).toString('base64')}`,
    'LS0tLS1CRUdJTiBQVUJMSUMgS0VZLS0tLS0K',
  ],
};
