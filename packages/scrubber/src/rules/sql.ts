import { ALPHABETS } from '../alphabets.js';
import { isPlaceholder } from '../placeholder.js';
import type { RuleMatch, SecretRule } from '../types.js';

// Passwords in SQL statements that create or change a login, as migrations, database tool logs
// and query histories show them: PostgreSQL's `CREATE ROLE app WITH LOGIN PASSWORD '...'`,
// `ALTER USER app PASSWORD '...'`; MySQL's `IDENTIFIED BY '...'`,
// `IDENTIFIED WITH caching_sha2_password BY '...'`, `SET PASSWORD FOR u = '...'`; Oracle's
// `IDENTIFIED BY word`; SQL Server's `CREATE LOGIN app WITH PASSWORD = '...'`.

const MAX_VALUE = 256;
const LOOKBACK = 200;

/** A statement that sets a password: the keyword of its object before it (case-insensitive). */
const STATEMENT = /\b(?:user|role|login|set\s+password)\b/i;
/** `IDENTIFIED BY ` or `IDENTIFIED WITH plugin BY `, run sticky at the anchor. */
const IDENTIFIED_BY = /identified\s{1,8}(?:with\s{1,8}[\w'"]{1,64}\s{1,8})?by\s{1,8}/iy;

/** The regexes the rule runs, for the regex safety test. */
export const SQL_PATTERNS: readonly RegExp[] = [STATEMENT, IDENTIFIED_BY];

function isBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/** The value from `from`: a '...' literal (`''` inside) or, when `bare`, a word; undefined when neither. */
function literal(text: string, from: number, bare: boolean): RuleMatch | undefined {
  let cursor = from;
  if ((text.charCodeAt(cursor) | 32) === 101 && text.charCodeAt(cursor + 1) === 39) cursor++; // E'...'
  const quote = text.charCodeAt(cursor);
  let start: number;
  let end: number;
  if (quote === 39 || quote === 34) {
    start = cursor + 1;
    end = start;
    while (end < text.length && end - start <= MAX_VALUE) {
      const code = text.charCodeAt(end);
      if (code === quote) {
        if (text.charCodeAt(end + 1) !== quote) break;
        end += 2;
      } else if (code === 10) return undefined;
      else end++;
    }
    if (end >= text.length || end - start > MAX_VALUE) return undefined;
  } else {
    if (!bare) return undefined;
    start = cursor;
    end = start;
    while (
      end < text.length &&
      end - start <= MAX_VALUE &&
      !isBlank(text.charCodeAt(end)) &&
      text.charCodeAt(end) !== 59
    )
      end++;
    if (end - start > MAX_VALUE || /^values$/i.test(text.slice(start, end))) return undefined;
  }
  const value = text.slice(start, end);
  if (value.length < 4 || isPlaceholder(value) || /^[:@$?%]/.test(value)) return undefined;
  return { start, end, kind: 'password' };
}

/** The statement's text before `anchor`: back to the last `;`, at most {@link LOOKBACK} characters. */
function current(text: string, anchor: number): string {
  const statement = text.slice(Math.max(0, anchor - LOOKBACK), anchor);
  return statement.slice(statement.lastIndexOf(';') + 1);
}

/**
 * Where the keyword of the anchor at `at` begins: the anchors are the keywords' tails (`SSWORD`,
 * `assword`, `FIED`, `fied`), so a keyword is found whatever its first letter's case. -1 when no
 * keyword is there.
 */
function keywordStart(text: string, at: number): number {
  const code = text.charCodeAt(at);
  const start = code === 83 ? at - 2 : code === 97 ? at - 1 : at - 6;
  if (start < 0) return -1;
  const length = code === 83 || code === 97 ? 8 : 10;
  const word = text.slice(start, start + length).toLowerCase();
  return word === 'password' || word === 'identified' ? start : -1;
}

function matchSql(text: string, at: number): RuleMatch | undefined {
  const anchor = keywordStart(text, at);
  if (anchor === -1) return undefined;
  if (anchor > 0 && !isBlank(text.charCodeAt(anchor - 1))) return undefined;
  if ((text.charCodeAt(anchor) | 32) === 105) {
    // IDENTIFIED ... BY: the anchor is `IDENTIFIED`; find its `BY`.
    IDENTIFIED_BY.lastIndex = anchor;
    if (!IDENTIFIED_BY.test(text)) return undefined;
    // A quoted value is SQL enough (`GRANT ... TO 'app'@'%' IDENTIFIED BY '...'`); a bare word
    // needs a user, role or login statement ("the schema identified by this URI" is prose).
    const value = IDENTIFIED_BY.lastIndex;
    const quote = text.charCodeAt((text.charCodeAt(value) | 32) === 101 ? value + 1 : value);
    const quoted = quote === 39 || quote === 34;
    return quoted || STATEMENT.test(current(text, anchor)) ? literal(text, value, true) : undefined;
  }
  let cursor = anchor + 8;
  if (isBlank(text.charCodeAt(cursor)) || text.charCodeAt(cursor) === 61 || text.charCodeAt(cursor) === 40) {
    // PASSWORD 'x', PASSWORD = 'x', PASSWORD('x') (MySQL 5's function).
    let steps = 0;
    while (steps++ < 6 && (isBlank(text.charCodeAt(cursor)) || text.charCodeAt(cursor) === 61)) cursor++;
    if (text.charCodeAt(cursor) === 40) cursor++;
  } else return undefined;
  // The literal's quote first: the statement's keywords are looked for only then.
  const quote = text.charCodeAt((text.charCodeAt(cursor) | 32) === 101 ? cursor + 1 : cursor);
  if (quote !== 39 && quote !== 34) return undefined;
  if (!STATEMENT.test(current(text, anchor))) return undefined;
  return literal(text, cursor, false);
}

/** Passwords in SQL statements that create or change a login. */
export const sqlPassword: SecretRule = {
  id: 'sql_password',
  description:
    "Passwords in SQL: CREATE/ALTER USER|ROLE ... PASSWORD '...', IDENTIFIED [WITH plugin] BY '...', SET PASSWORD = '...', CREATE LOGIN ... WITH PASSWORD = '...'",
  anchors: ['SSWORD', 'assword', 'FIED', 'fied'],
  match: matchSql,
  maxLength: 100 + MAX_VALUE + 2,
  positives: (fake) => {
    const password = `${fake.chars(ALPHABETS.alnum, 12)}!${fake.chars(ALPHABETS.digits, 2)}`;
    const sample = (text: string) => ({ text, secret: password, kind: 'password' });
    return [
      sample(`CREATE ROLE app WITH LOGIN PASSWORD '${password}';`),
      sample(`alter user app with encrypted password '${password}';`),
      sample(`CREATE USER 'app'@'%' IDENTIFIED BY '${password}';`),
      sample(`ALTER USER app IDENTIFIED WITH caching_sha2_password BY '${password}';`),
      sample(`CREATE LOGIN app WITH PASSWORD = '${password}';`),
      sample(`SET PASSWORD FOR 'app'@'localhost' = PASSWORD('${password}');`),
      sample(`CREATE USER app IDENTIFIED BY ${password};`),
    ];
  },
  negatives: () => [
    "CREATE USER app WITH PASSWORD ':password';",
    'ALTER USER app PASSWORD NULL;',
    'CREATE USER app IDENTIFIED BY $1;',
    'SELECT password FROM users WHERE id = 1;',
    "Enter the password 'below' to continue",
    'CREATE USER app IDENTIFIED EXTERNALLY;',
  ],
};
