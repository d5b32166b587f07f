import { remoteServerSchema, stdioServerSchema, websocketServerSchema } from './schema.js';

/** The fields of our typed server config, of every kind. */
export const TYPED_SERVER_KEYS: ReadonlySet<string> = new Set([
  ...Object.keys(stdioServerSchema.shape),
  ...Object.keys(remoteServerSchema.shape),
  ...Object.keys(websocketServerSchema.shape),
]);

/**
 * Keys of our own file format beyond the typed fields: the spellings of other tools the loader
 * reads (`timeout`, `disabled`, `serverUrl`, `httpUrl`, Gemini CLI's tool filters, `envFile`,
 * a free-text `description`) and VS Code's own (`dev`, `gallery`, `version`), since a VS Code
 * file with `servers` and no `inputs` cannot be told from ours.
 */
export const FILE_SERVER_KEYS: ReadonlySet<string> = new Set([
  ...TYPED_SERVER_KEYS,
  'timeout',
  'disabled',
  'serverUrl',
  'httpUrl',
  'includeTools',
  'excludeTools',
  'envFile',
  'description',
  'dev',
  'gallery',
  'version',
]);

/** Names other tools and habits use for one of our fields. */
const ALIASES: Readonly<Record<string, string>> = {
  timeout: 'requestTimeoutMs',
  environment: 'env',
  arguments: 'args',
  argv: 'args',
  cmd: 'command',
  workingDirectory: 'cwd',
  endpoint: 'url',
  token: 'bearerToken',
  disabled: 'enabled',
};

/** Edit distance (insert, delete, replace one character; case ignored). */
function distance(left: string, right: string): number {
  const a = left.toLowerCase();
  const b = right.toLowerCase();
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const replace = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(replace, (previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The known key that `key` most likely meant, if one is close: a known alias, the same name in
 * another case or without its unit (`requestTimeout` for `requestTimeoutMs`), or one within a
 * few typed characters (a third of the name at most).
 */
export function closestKey(key: string, known: Iterable<string>): string | undefined {
  const candidates = [...known];
  const alias = ALIASES[key];
  if (alias !== undefined && candidates.includes(alias)) return alias;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const score = candidate.toLowerCase() === `${key.toLowerCase()}ms` ? 0 : distance(key, candidate);
    if (score < bestDistance) {
      best = candidate;
      bestDistance = score;
    }
  }
  return bestDistance <= Math.max(1, Math.floor(key.length / 3)) ? best : undefined;
}

/** Keys of `object` (whose value is not undefined) that are not in `known`, in order. */
export function unknownKeys(object: object, known: ReadonlySet<string>): string[] {
  return Object.entries(object)
    .filter(([key, value]) => value !== undefined && !known.has(key))
    .map(([key]) => key);
}

/** What to say about an unknown key: the one meant when one is close, and to rename or remove it. */
export function unknownKeyMessage(key: string, known: ReadonlySet<string>, of: string): string {
  const meant = closestKey(key, known);
  return meant === undefined
    ? `is not a field of ${of}: remove it`
    : `is not a field of ${of}: did you mean ${meant}? (rename or remove it)`;
}
