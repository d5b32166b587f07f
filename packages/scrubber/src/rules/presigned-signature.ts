// The `Signature` of an AWS signature version 2 presigned URL (`?AWSAccessKeyId=...&Expires=...&
// Signature=...`, what S3 and SimpleDB accept and botocore's `s3` signer writes), of a CloudFront
// signed URL (`&Signature=...&Key-Pair-Id=...`) and of a SigV4 `Authorization` header
// (`AWS4-HMAC-SHA256 Credential=..., SignedHeaders=..., Signature=...`): whoever holds the URL or
// replays the request has the access it grants until it expires. `Signature` alone is too
// generic a key, so it counts only next to one of these markers on its line.

const MARKERS = ['AWSAccessKeyId', 'Key-Pair-Id', 'AWS4-HMAC-SHA256'];
const REACH = 2048;

/** Whether the key before `end` ends with `Signature` or `signature` (not in the credential key table). */
export function endsWithSignature(text: string, end: number): boolean {
  const first = text.charCodeAt(end - 9);
  return (first === 83 || first === 115) && text.startsWith('ignature', end - 8);
}

/** The last line looked at (`Signature=` repeated on one line costs one look). */
let last: { text: string; start: number; end: number; signed: boolean } | undefined;

/** `token` when the key `key` (starting at `keyStart`) is the signature of a presigned AWS URL or request. */
export function presignedSignatureKind(text: string, key: string, keyStart: number): string | undefined {
  if (key !== 'Signature' && key !== 'signature') return undefined;
  if (last === undefined || last.text !== text || keyStart < last.start || keyStart >= last.end) {
    // The key's line, up to REACH characters each side (searched in a bounded slice).
    const from = Math.max(0, keyStart - REACH);
    const window = text.slice(from, Math.min(text.length, keyStart + REACH));
    const start = from + window.lastIndexOf('\n', keyStart - from) + 1;
    const newline = window.indexOf('\n', keyStart - from);
    const end = newline === -1 ? from + window.length : from + newline;
    const line = text.slice(start, end);
    last = { text, start, end, signed: MARKERS.some((marker) => line.includes(marker)) };
  }
  return last.signed ? 'token' : undefined;
}
