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
]);

const CONCATENATED_SUFFIXES = ['password', 'passwd', 'secret', 'token', 'apikey', 'passphrase'];

/** Tails (last three letters, lower case) of every credential key name: a cheap first filter. */
const TAILS: ReadonlySet<number> = new Set(
  ['ord', 'swd', 'pwd', 'ase', 'ass', 'ret', 'ken', 'key', 'ial', 'als', 'ion', 'uth', 'rer'].map(
    (tail) => (tail.charCodeAt(0) << 16) | (tail.charCodeAt(1) << 8) | tail.charCodeAt(2),
  ),
);

/** Whether the three characters before `end` could end a credential key name. */
export function hasCredentialTail(text: string, end: number): boolean {
  if (end < 3) return false;
  const code =
    ((text.charCodeAt(end - 3) | 0x20) << 16) |
    ((text.charCodeAt(end - 2) | 0x20) << 8) |
    (text.charCodeAt(end - 1) | 0x20);
  return TAILS.has(code);
}

/** Splits a key name into lower-case words at `_`, `-`, `.` and camelCase boundaries. */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_.-]+/)
    .filter((word) => word.length > 0);
}

/** The kind of credential a key name holds (`password`, `token`, `api_key`...), or undefined. */
export function credentialKind(key: string): string | undefined {
  const words = keyWords(key);
  const last = words[words.length - 1];
  if (last === undefined) return undefined;
  const previous = words[words.length - 2];
  if (last === 'key') {
    if (previous === undefined || !KEY_QUALIFIERS.has(previous)) return undefined;
    if (words.includes('aws') || (words.includes('secret') && previous === 'access')) return 'aws_secret_key';
    return previous === 'secret' || previous === 'private' ? 'secret' : 'api_key';
  }
  let kind = LAST_WORD_KIND.get(last);
  if (kind === undefined) {
    const suffix = CONCATENATED_SUFFIXES.find((candidate) => last.endsWith(candidate));
    if (suffix === undefined) return undefined;
    kind = LAST_WORD_KIND.get(suffix);
  }
  if (kind === 'secret' && words.includes('aws')) return 'aws_secret_key';
  return kind;
}
