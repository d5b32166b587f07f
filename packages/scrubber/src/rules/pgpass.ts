import { ALPHABETS } from '../alphabets.js';
import { isPlaceholder } from '../placeholder.js';
import type { RuleMatch, SecretRule } from '../types.js';

// PostgreSQL's password file (`~/.pgpass`, `%APPDATA%\postgresql\pgpass.conf`, `PGPASSFILE`):
// one `hostname:port:database:username:password` entry a line, `*` for any of the first four,
// `\:` and `\\` escaped. The rule is anchored on the colon after the host, followed by the port
// (1024-65535 or `*`), and checks the whole line from there: the host begins the line, database and
// user read as names, and the password runs to the end of the line.

const MAX_HOST = 253;
const MAX_NAME = 64;
const MAX_VALUE = 512;
const MAX_INDENT = 16;

function isLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** A character of a host name or address: letters, digits, `.`, `-`, `_`. */
function isHostCode(code: number): boolean {
  return isLetter(code) || isDigit(code) || code === 46 || code === 45 || code === 95;
}

/**
 * Where the host before the colon at `colon` begins, when it begins a line (after a line break,
 * indentation, a quote as in `echo "..." >> ~/.pgpass`, or a JSON-escaped `\n`); -1 otherwise.
 * The second value tells whether the line is inside a JSON string or quotes (its end is then the
 * closing quote or an escaped line break too).
 */
function hostStart(text: string, colon: number): { start: number; quoted: boolean } | undefined {
  let start = colon;
  while (start > 0 && colon - start < MAX_HOST) {
    const code = text.charCodeAt(start - 1);
    // The `n` of a JSON-escaped `\n` ends the previous line.
    if ((code === 110 || code === 114) && text.charCodeAt(start - 2) === 92) break;
    if (isHostCode(code)) start--;
    else if (code === 58 && text.charCodeAt(start - 2) === 92)
      start -= 2; // an escaped `\:` (IPv6)
    else break;
  }
  if (start === colon) {
    if (text.charCodeAt(colon - 1) !== 42) return undefined; // `*`: any host
    start--;
  } else if (!isHostCode(text.charCodeAt(start)) || text.charCodeAt(start - 1) === 42) return undefined;
  let cursor = start;
  while (
    cursor > 0 &&
    start - cursor < MAX_INDENT &&
    (text.charCodeAt(cursor - 1) === 32 || text.charCodeAt(cursor - 1) === 9)
  )
    cursor--;
  if (cursor === 0) return { start, quoted: false };
  const before = text.charCodeAt(cursor - 1);
  if (before === 10 || before === 13) return { start, quoted: false };
  if (before === 34 || before === 39) return listed(text, cursor - 1) ? undefined : { start, quoted: true };
  // `\n` of a JSON string (a file's content in a structured result).
  if ((before === 110 || before === 114) && text.charCodeAt(cursor - 2) === 92)
    return { start, quoted: true };
  return undefined;
}

/**
 * Whether the quote at `quote` follows a list number that begins its line, as `redis-cli` prints
 * keys (`1) "user:4242:profile:alice:avatar"`).
 */
function listed(text: string, quote: number): boolean {
  let cursor = quote;
  while (cursor > 0 && quote - cursor < 4 && text.charCodeAt(cursor - 1) === 32) cursor--;
  if (text.charCodeAt(cursor - 1) !== 41) return false;
  cursor--;
  const close = cursor;
  while (cursor > 0 && close - cursor < 10 && isDigit(text.charCodeAt(cursor - 1))) cursor--;
  if (cursor === close) return false;
  while (cursor > 0 && (text.charCodeAt(cursor - 1) === 32 || text.charCodeAt(cursor - 1) === 9)) cursor--;
  return cursor === 0 || text.charCodeAt(cursor - 1) === 10 || text.charCodeAt(cursor - 1) === 13;
}

/** End of the database or user field from `start` (at its `:`), or -1 when it does not read as one. */
function nameField(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === 42) return text.charCodeAt(start + 1) === 58 ? start + 1 : -1;
  // A database or role name, as psql users write them: a letter or `_` first.
  if (!(isLetter(first) || first === 95)) return -1;
  let cursor = start;
  while (cursor - start <= MAX_NAME) {
    const code = text.charCodeAt(cursor);
    if (code === 58) return cursor;
    if (code === 92) {
      const next = text.charCodeAt(cursor + 1);
      if (next !== 58 && next !== 92) return -1;
      cursor += 2;
    } else if (code <= 32 || code === 34 || code === 39 || Number.isNaN(code)) return -1;
    else cursor++;
  }
  return -1;
}

/** End of the password from `start`: the line's end (a closing quote or escaped line break when quoted), trailing blanks left out. */
function passwordEnd(text: string, start: number, quoted: boolean): number {
  let end = start;
  const limit = Math.min(text.length, start + MAX_VALUE + 1);
  while (end < limit) {
    const code = text.charCodeAt(end);
    if (code === 10 || code === 13) break;
    if (quoted && (code === 34 || code === 39)) break;
    if (code === 92) {
      const next = text.charCodeAt(end + 1);
      if (quoted && (next === 110 || next === 114 || next === 34)) break;
      end += 2;
      continue;
    }
    end++;
  }
  end = Math.min(end, text.length);
  if (end - start > MAX_VALUE) return -1;
  while (end > start && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)) end--;
  return end;
}

function matchPgpass(text: string, colon: number): RuleMatch | undefined {
  // The port: `*` or a number from 1024 to 65535 (no database server listens on a privileged
  // port; `user:42:profile:alice:avatar` is a cache key), then `:`.
  let cursor = colon + 1;
  if (text.charCodeAt(cursor) === 42) cursor++;
  else {
    while (cursor - colon <= 5 && isDigit(text.charCodeAt(cursor))) cursor++;
    const port = Number(text.slice(colon + 1, cursor));
    if (cursor - colon > 6 || text.charCodeAt(colon + 1) === 48 || port < 1024 || port > 65535)
      return undefined;
  }
  if (text.charCodeAt(cursor) !== 58) return undefined;
  const database = nameField(text, cursor + 1);
  if (database === -1) return undefined;
  const role = nameField(text, database + 1);
  if (role === -1) return undefined;
  const host = hostStart(text, colon);
  if (host === undefined) return undefined;
  const start = role + 1;
  const end = passwordEnd(text, start, host.quoted);
  if (end === -1 || end - start < 4) return undefined;
  const value = text.slice(start, end);
  if (isPlaceholder(value)) return undefined;
  return { start, end, kind: 'password' };
}

/** Passwords of PostgreSQL's password file lines (`host:port:database:user:password`). */
export const pgpass: SecretRule = {
  id: 'pgpass',
  description:
    'Passwords in PostgreSQL password file (.pgpass, pgpass.conf) lines: hostname:port:database:username:password, * for any field',
  // The colon after the host, followed by the port or `*`.
  anchors: [':*', ...'0123456789'.split('').map((digit) => `:${digit}`)],
  match: matchPgpass,
  maxLength: 1 + 6 + 2 * (MAX_NAME + 2) + MAX_VALUE + 1,
  positives: (fake) => {
    const password = `${fake.chars(ALPHABETS.alnum, 16)}!${fake.chars(ALPHABETS.digits, 2)}`;
    const sample = (text: string) => ({ text, secret: password, kind: 'password' });
    return [
      sample(`db.example.com:5432:app:deploy:${password}\n`),
      sample(`# read-only replica\nlocalhost:*:*:postgres:${password}`),
      sample(`*:*:*:replicator:${password}\r\n`),
      sample(`  10.0.0.5:6432:app_prod:app_user:${password}\n`),
      sample(`echo "db:5432:app:deploy:${password}" >> ~/.pgpass`),
      sample(`{"content":"# pgpass\\ndb:5432:app:deploy:${password}\\n"}`),
    ];
  },
  negatives: () => [
    'localhost:5432:app:deploy:$PGPASSWORD',
    'main.c:12:5: error: expected ;',
    '2026-11-22T13:28:04Z:INFO:server:started',
    'root:x:0:0:root:/root:/bin/bash',
    'aa:11:22:33:44:55',
    'Started at 13:28:04 on db:5432:app:deploy:Tr0ub4dor',
    'db:5432:app:deploy:',
    'db:5432:app:deploy:abc',
  ],
};
