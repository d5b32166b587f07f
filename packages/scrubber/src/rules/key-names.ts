// Which key names hold credentials, decided on the words of the name (`GITHUB_TOKEN`, `clientSecret`, `x-api-key`).

const LAST_WORD_KIND: ReadonlyMap<string, string> = new Map([
  ['password', 'password'],
  ['passwd', 'password'],
  ['pwd', 'password'],
  ['passphrase', 'password'],
  ['pass', 'password'],
  ['secret', 'secret'],
  ['token', 'token'],
  ['apikey', 'api_key'],
  ['accesskey', 'api_key'],
  ['secretkey', 'secret'],
  ['privatekey', 'secret'],
  ['credential', 'credential'],
  ['credentials', 'credential'],
  ['authorization', 'authorization'],
  ['auth', 'authorization'],
  ['bearer', 'authorization'],
  // A personal access token: `GH_PAT`, `AZURE_DEVOPS_PAT`.
  ['pat', 'token'],
  // A Kubernetes docker-registry Secret's data: base64 of JSON holding registry passwords.
  ['dockerconfigjson', 'credential'],
  ['dockercfg', 'credential'],
]);

const KEY_QUALIFIERS: ReadonlySet<string> = new Set([
  'api',
  'access',
  'secret',
  'private',
  'master',
  'signing',
  'encryption',
  'account',
  'client',
  'app',
  'auth',
  'session',
  'subscription',
  'shared',
  'license',
  'ssh',
  'deploy',
  'webhook',
  'hmac',
  'jwt',
  'cipher',
  'crypto',
  'aes',
  'storage',
  'service',
]);

const CONCATENATED_SUFFIXES = ['password', 'passwd', 'secret', 'token', 'apikey', 'passphrase'];

/**
 * Words before `token` that make it a position in a listing or a stream, not a credential: what
 * an API hands back to be sent again for the next page (`nextPageToken`, AWS's `NextToken`,
 * `ContinuationToken`, `PaginationToken`, Calendar's `nextSyncToken`), MCP's `progressToken`, a
 * change stream's `resumeToken`, an `IdempotencyToken`. Redacted, they cost an agent the rest
 * of a listing and give nothing away.
 */
const POSITION_TOKEN_QUALIFIERS: readonly string[] = [
  'page',
  'next',
  'prev',
  'previous',
  'continuation',
  'pagination',
  'progress',
  'sync',
  'resume',
  'idempotency',
];

/** Whether `words` (of a key ending in `token`) name a position token (see above). */
function isPositionToken(words: readonly string[]): boolean {
  const last = words[words.length - 1] as string;
  // `nexttoken`, `nextpagetoken`: the qualifier is glued to the word.
  const glued = last === 'token' ? (words[words.length - 2] ?? '') : last.slice(0, -'token'.length);
  return POSITION_TOKEN_QUALIFIERS.some((qualifier) => glued.endsWith(qualifier));
}

const SUFFIXES: readonly string[] = [
  ...LAST_WORD_KIND.keys(),
  'secret_key_base', // Rails
  // The signature of an S3 or Cloud Storage presigned URL: a bearer capability until it expires.
  'amz_signature',
  'goog_signature',
  ...[...KEY_QUALIFIERS].flatMap((qualifier) => [`${qualifier}key`, `${qualifier}_key`, `${qualifier}-key`]),
];

function letterIndex(code: number): number {
  const lower = code | 0x20;
  return lower >= 97 && lower <= 122 ? lower - 97 : -1;
}

/** Slot of three trailing letters in {@link SUFFIXES_BY_TAIL}, or -1 when one is not a letter. */
function tailSlot(a: number, b: number, c: number): number {
  const x = letterIndex(a);
  const y = letterIndex(b);
  const z = letterIndex(c);
  return x < 0 || y < 0 || z < 0 ? -1 : x * 676 + y * 26 + z;
}

/** Credential key suffixes by their last three letters (case-folded): a cheap first filter. */
const SUFFIXES_BY_TAIL: readonly (readonly string[] | undefined)[] = (() => {
  const table: string[][] = new Array(26 * 26 * 26);
  for (const suffix of SUFFIXES) {
    const n = suffix.length;
    const slot = tailSlot(suffix.charCodeAt(n - 3), suffix.charCodeAt(n - 2), suffix.charCodeAt(n - 1));
    const bucket = table[slot] ?? [];
    bucket.push(suffix);
    table[slot] = bucket;
  }
  return table;
})();

/**
 * Whether the text before `end` ends (ignoring case) with a credential key word such as
 * `password`, `token` or `api_key`. Runs at every `:` and `=`, so it avoids allocating.
 */
export function hasCredentialTail(text: string, end: number): boolean {
  if (end < 3) return false;
  const slot = tailSlot(text.charCodeAt(end - 3), text.charCodeAt(end - 2), text.charCodeAt(end - 1));
  const candidates = slot < 0 ? undefined : SUFFIXES_BY_TAIL[slot];
  if (candidates === undefined) return false;
  for (const suffix of candidates) {
    const start = end - suffix.length;
    if (start < 0) continue;
    let same = true;
    for (let i = 0; i < suffix.length - 3 && same; i++) {
      const code = text.charCodeAt(start + i);
      const expected = suffix.charCodeAt(i);
      same =
        (code >= 65 && code <= 90 ? code | 0x20 : code) === expected ||
        ((code === 95 || code === 45 || code === 46) && (expected === 95 || expected === 45));
    }
    if (same) return true;
  }
  return false;
}

/** Splits a key name into lower-case words at `_`, `-`, `.` and camelCase boundaries. */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_.-]+/)
    .filter((word) => word.length > 0);
}

const kindCache = new Map<string, string | null>();

/** The kind of credential a key name holds (`password`, `token`, `api_key`...), or undefined. Cached. */
export function credentialKind(key: string): string | undefined {
  const cached = kindCache.get(key);
  if (cached !== undefined) return cached ?? undefined;
  const kind = computeCredentialKind(key);
  if (kindCache.size >= 4096) kindCache.clear();
  kindCache.set(key, kind ?? null);
  return kind;
}

function computeCredentialKind(key: string): string | undefined {
  const words = keyWords(key);
  const last = words[words.length - 1];
  if (last === undefined) return undefined;
  const previous = words[words.length - 2];
  if (last === 'base' && previous === 'key' && words[words.length - 3] === 'secret') return 'secret';
  if (last === 'key') {
    if (previous === undefined || !KEY_QUALIFIERS.has(previous)) return undefined;
    if (words.includes('aws') || (words.includes('secret') && previous === 'access')) return 'aws_secret_key';
    return previous === 'secret' || previous === 'private' ? 'secret' : 'api_key';
  }
  if (last === 'signature') return previous === 'amz' || previous === 'goog' ? 'token' : undefined;
  let kind = LAST_WORD_KIND.get(last);
  if (kind === undefined) {
    const suffix = CONCATENATED_SUFFIXES.find((candidate) => last.endsWith(candidate));
    if (suffix === undefined) return undefined;
    kind = LAST_WORD_KIND.get(suffix);
  }
  if (kind === 'secret' && words.includes('aws')) return 'aws_secret_key';
  if (kind === 'token' && last.endsWith('token') && isPositionToken(words)) return undefined;
  return kind;
}
