/** What the first bytes of a file say it is. */
export interface Sniffed {
  /** True when the file should not be shown as text. */
  readonly binary: boolean;
  /** A MIME type when the bytes name one (`image/png`, `application/pdf`...). */
  readonly mimeType?: string;
  /** A human name of the format, for messages. */
  readonly description: string;
}

interface Signature {
  readonly bytes: readonly number[];
  readonly offset?: number;
  readonly mimeType: string;
  readonly description: string;
}

const SIGNATURES: readonly Signature[] = [
  {
    bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    mimeType: 'image/png',
    description: 'PNG image',
  },
  { bytes: [0xff, 0xd8, 0xff], mimeType: 'image/jpeg', description: 'JPEG image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], mimeType: 'image/gif', description: 'GIF image' },
  { bytes: [0x52, 0x49, 0x46, 0x46], mimeType: 'image/webp', description: 'WebP image' },
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], mimeType: 'application/pdf', description: 'PDF document' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], mimeType: 'application/zip', description: 'ZIP archive' },
  { bytes: [0x1f, 0x8b], mimeType: 'application/gzip', description: 'gzip archive' },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], mimeType: 'application/x-elf', description: 'ELF executable' },
  { bytes: [0x00, 0x61, 0x73, 0x6d], mimeType: 'application/wasm', description: 'WebAssembly module' },
  {
    bytes: [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65],
    mimeType: 'application/vnd.sqlite3',
    description: 'SQLite database',
  },
];

function startsWith(sample: Uint8Array, signature: Signature): boolean {
  const offset = signature.offset ?? 0;
  if (sample.length < offset + signature.bytes.length) return false;
  return signature.bytes.every((byte, i) => sample[offset + i] === byte);
}

function isWebp(sample: Uint8Array): boolean {
  return Buffer.from(sample.subarray(8, 12)).toString('latin1') === 'WEBP';
}

/**
 * Classifies a file from its first bytes: known binary formats by signature, otherwise binary
 * when the sample holds a NUL byte or mostly non-text control bytes.
 */
export function sniff(sample: Uint8Array): Sniffed {
  for (const signature of SIGNATURES) {
    if (!startsWith(sample, signature)) continue;
    if (signature.mimeType === 'image/webp' && !isWebp(sample)) continue;
    return { binary: true, mimeType: signature.mimeType, description: signature.description };
  }
  if (sample.length === 0) return { binary: false, description: 'empty file' };
  // UTF-16 with a byte-order mark is text, even though it is full of NULs.
  if ((sample[0] === 0xff && sample[1] === 0xfe) || (sample[0] === 0xfe && sample[1] === 0xff)) {
    return { binary: false, description: 'UTF-16 text' };
  }
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return { binary: true, description: 'binary data' };
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20 && byte !== 0x1b)) control++;
  }
  if (control / sample.length > 0.1) return { binary: true, description: 'binary data' };
  return { binary: false, description: 'text' };
}

/** True for the image types models accept as image content. */
export function isModelImage(mimeType: string | undefined): boolean {
  return (
    mimeType === 'image/png' ||
    mimeType === 'image/jpeg' ||
    mimeType === 'image/gif' ||
    mimeType === 'image/webp'
  );
}

/** `1.2 MB` style sizes for messages. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value >= 10 ? 0 : 1)} ${units[unit]}`;
}
