import { ALPHABETS } from '../alphabets.js';
import type { RuleMatch, SecretRule } from '../types.js';
import { isPlaceholderArgument } from './arguments.js';
import { type KnownCommand, commandBefore } from './command-words.js';
import { MAX_PART, MIN_PASSWORD, endsArgument, endsPassword, isUserCode } from './oracle-words.js';
import { rmanLogons } from './oracle-rman.js';

// Oracle's connect strings put the password between the user and the database:
// `sqlplus scott/PASSWORD@orcl`, `CONNECT system/PASSWORD@//db:1521/svc`, `rman target
// sys/PASSWORD@prod`, `expdp userid=scott/PASSWORD@db`, `jdbc:oracle:thin:scott/PASSWORD@host:1521:orcl`.

/** The Oracle tools and SQL*Plus/RMAN commands a connect string follows. */
const COMMANDS: ReadonlyMap<string, KnownCommand> = new Map(
  [
    'sqlplus',
    'sql', // SQLcl
    'sqlcl',
    'expdp',
    'impdp',
    'exp',
    'imp',
    'rman',
    'sqlldr',
    'dgmgrl',
    'connect',
    'conn',
    'CONNECT',
    'CONN',
    'Connect',
  ].map((name) => [name, { names: [name] }]),
);

/** Words allowed between the command and the connect string: RMAN's connection keywords. */
const CONNECTION_KEYWORDS: ReadonlySet<string> = new Set(['target', 'catalog', 'auxiliary']);

/** Prefixes that make what follows a connect string wherever it is. */
const PREFIXES = ['userid=', 'jdbc:oracle:thin:', 'jdbc:oracle:oci:', 'jdbc:oracle:oci8:'];

/** Where the user name that ends at `end` (just before the `/`) begins, or -1. */
function userStart(text: string, end: number): number {
  if (text.charCodeAt(end - 1) === 34) {
    const open = text.lastIndexOf('"', end - 2);
    return open === -1 || end - open > MAX_PART || text.slice(open, end).includes('\n') ? -1 : open;
  }
  let start = end;
  while (start > 0 && end - start < MAX_PART && isUserCode(text.charCodeAt(start - 1))) start--;
  const first = text.charCodeAt(start);
  const letter = (first >= 97 && first <= 122) || (first >= 65 && first <= 90);
  return start < end && letter ? start : -1;
}

/**
 * Whether the connect string beginning at `start` is one: after a prefix of {@link PREFIXES}, or
 * the first argument of a known command (after its options, RMAN's `target`/`catalog`/`auxiliary`).
 */
function inConnectContext(text: string, start: number): boolean {
  let wordStart = start;
  if (text.charCodeAt(wordStart - 1) === 34 || text.charCodeAt(wordStart - 1) === 39) wordStart--;
  const before = text.charCodeAt(wordStart - 1);
  if (before === 61 || before === 58)
    return PREFIXES.some((prefix) => {
      const at = wordStart - prefix.length;
      return at >= 0 && text.slice(at, wordStart).toLowerCase() === prefix;
    });
  // An argument begins after a blank, a NUL, or an argument list's `,` or `[`: `@scope/pkg@1.0`
  // and `icons/logo@2x.png` are turned away here, before the command look-back.
  if (wordStart > 0 && !(before <= 32 || before === 44 || before === 91)) return false;
  const found = commandBefore(text, wordStart, COMMANDS);
  if (found === undefined) return false;
  const between = text.slice(found.nameEnd, wordStart).split(/[\s"',[\]\0\\]+/);
  return between.every(
    (word) =>
      word === '' ||
      word.startsWith('-') ||
      /^[0-9]+$/.test(word) ||
      CONNECTION_KEYWORDS.has(word.toLowerCase()),
  );
}

/**
 * The password `start`..`end` of `user/password` (the `/` at `slash`; quotes around the password
 * lie between), when the user and what precedes it make it a connect string.
 */
function passwordMatch(text: string, slash: number, start: number, end: number): RuleMatch | undefined {
  if (end - start < MIN_PASSWORD || text.charCodeAt(slash) !== 47) return undefined;
  const user = userStart(text, slash);
  if (user === -1 || !inConnectContext(text, user)) return undefined;
  if (isPlaceholderArgument(text.slice(start, end))) return undefined;
  return { start, end, kind: 'password' };
}

/** At an `@`: the password of the `user/password` just before it. */
function atSign(text: string, at: number): RuleMatch | undefined {
  if (text.charCodeAt(at - 1) === 34) {
    // A quoted password (`scott/"pa@ss word"@db`) holds what its quotes hold.
    const open = text.lastIndexOf('"', at - 2);
    if (open === -1 || at - open > MAX_PART || text.slice(open, at).includes('\n')) return undefined;
    return passwordMatch(text, open - 1, open + 1, at - 1);
  }
  let start = at;
  while (start > 0 && at - start < MAX_PART && !endsPassword(text.charCodeAt(start - 1))) start--;
  return passwordMatch(text, start - 1, start, at);
}

/** At `userid=`: the password of the `user/password[@db]` after it (no `@` needed). */
function userid(text: string, anchor: number): RuleMatch | undefined {
  const previous = text.charCodeAt(anchor - 1);
  if (isUserCode(previous) || previous === 45 || previous === 46) return undefined;
  let cursor = anchor + 'userid='.length;
  const quote = text.charCodeAt(cursor);
  if (quote === 34 || quote === 39) cursor++;
  const userFrom = cursor;
  while (cursor - userFrom < MAX_PART && isUserCode(text.charCodeAt(cursor))) cursor++;
  if (cursor === userFrom || text.charCodeAt(cursor) !== 47) return undefined;
  const start = cursor + 1;
  if (text.charCodeAt(start) === 34) {
    const close = text.indexOf('"', start + 1);
    if (close === -1 || close - start > MAX_PART) return undefined;
    return passwordMatch(text, cursor, start + 1, close);
  }
  let end = start;
  while (end - start < MAX_PART && end < text.length && !endsPassword(text.charCodeAt(end))) end++;
  return passwordMatch(text, cursor, start, end);
}

/**
 * Commands whose first argument is a logon even without `@`: SQL*Plus, SQL*Loader and SQLcl
 * (anchored on their names), Data Pump (`expdp` and `impdp` both anchored on `pdp`).
 */
const LOCAL_COMMANDS = ['sqlplus', 'sqlldr', 'sqlcl', 'expdp', 'impdp'];
const DATA_PUMP = 'pdp';
/** SQL*Plus's prompt, then its `connect`. */
const PROMPT = 'SQL> ';
const PROMPT_CONNECT = /[ \t]*(?:connect|conn)(?=[ \t])/iy;

/** The regexes the matcher uses (checked for linear time by a test). */
export const ORACLE_PATTERNS: readonly RegExp[] = [PROMPT_CONNECT];

/**
 * At `sqlplus`/`sqlldr`/`sqlcl` or the `SQL> ` prompt: the password of a logon `user/password`
 * given as the first argument without a database (`sqlplus scott/PASSWORD`: the local instance).
 * A logon with `@` is left to {@link atSign}; a word with a second `/` is a path.
 */
function localLogon(text: string, anchor: number): RuleMatch | undefined {
  let cursor: number;
  if (text.startsWith(PROMPT, anchor)) {
    PROMPT_CONNECT.lastIndex = anchor + PROMPT.length;
    if (!PROMPT_CONNECT.test(text)) return undefined;
    cursor = PROMPT_CONNECT.lastIndex;
  } else {
    const previous = text.charCodeAt(anchor - 1);
    if (anchor > 0 && (isUserCode(previous) || previous === 45 || previous === 46)) return undefined;
    const name = LOCAL_COMMANDS.find((command) => text.startsWith(command, anchor));
    if (name === undefined) return undefined;
    cursor = anchor + name.length;
    if (text.startsWith('.exe', cursor)) cursor += 4;
    if (!endsArgument(text.charCodeAt(cursor))) return undefined;
  }
  // Options (`-s`, `-L`, `-R 3`) and the separators of traces and argument lists come first.
  const limit = Math.min(text.length, cursor + MAX_PART);
  while (cursor < limit) {
    const code = text.charCodeAt(cursor);
    if (code === 32 || code === 9 || code === 0 || code === 34 || code === 39 || code === 44 || code === 91) {
      cursor++;
    } else if (code === 45 || (code >= 48 && code <= 57)) {
      while (cursor < limit && !endsArgument(text.charCodeAt(cursor))) cursor++;
    } else break;
  }
  if (cursor >= limit) return undefined;
  let slash = cursor;
  if (text.charCodeAt(slash) === 34) {
    const close = text.indexOf('"', slash + 1);
    if (close === -1 || close - slash > MAX_PART) return undefined;
    slash = close + 1;
  } else while (slash - cursor < MAX_PART && isUserCode(text.charCodeAt(slash))) slash++;
  if (slash === cursor || text.charCodeAt(slash) !== 47) return undefined;
  let start = slash + 1;
  let end: number;
  if (text.charCodeAt(start) === 34) {
    end = text.indexOf('"', start + 1);
    if (end === -1 || end - start > MAX_PART) return undefined;
    start++;
    if (!endsArgument(text.charCodeAt(end + 1))) return undefined;
  } else {
    end = start;
    while (end - start < MAX_PART && end < text.length && !endsPassword(text.charCodeAt(end))) end++;
    if (!endsArgument(text.charCodeAt(end))) return undefined;
  }
  return passwordMatch(text, slash, start, end);
}

function matchOracle(text: string, anchor: number): RuleMatch | readonly RuleMatch[] | undefined {
  const code = text.charCodeAt(anchor);
  if (code === 64) return atSign(text, anchor);
  if (code === 117 || code === 85) return userid(text, anchor);
  if (code === 114) return rmanLogons(text, anchor);
  if (text.startsWith(DATA_PUMP, anchor)) {
    const command = anchor - 2;
    return text.startsWith('ex', command) || text.startsWith('im', command)
      ? localLogon(text, command)
      : undefined;
  }
  return localLogon(text, anchor);
}

/** Passwords in Oracle connect strings (`user/password@db`). */
export const oracleConnect: SecretRule = {
  id: 'oracle_connect',
  description:
    'Passwords in Oracle connect strings: sqlplus/sqlcl/expdp/impdp/rman/sqlldr/dgmgrl user/password@db, CONNECT user/password@db, userid=user/password, jdbc:oracle:thin:user/password@host; sqlplus/sqlldr/sqlcl/expdp/impdp user/password, rman target/catalog/auxiliary user/password and SQL> connect user/password without a database',
  anchors: ['@', 'userid=', 'USERID=', 'sqlplus', 'sqlldr', 'sqlcl', DATA_PUMP, 'rman', PROMPT],
  match: matchOracle,
  maxLength: 3 * MAX_PART + 16,
  positives: (fake) => {
    const password = `${fake.chars(ALPHABETS.alnum, 12)}#${fake.chars(ALPHABETS.digits, 2)}`;
    const sample = (text: string) => ({ text, secret: password, kind: 'password' });
    return [
      sample(`$ sqlplus scott/${password}@orcl\n`),
      sample(`sqlplus -L -S app_owner/${password}@//db.example.com:1521/ORCLPDB1 @deploy.sql`),
      sample(`SQL> CONNECT system/${password}@prod_tns\nConnected.`),
      sample(`rman target sys/${password}@prod log=/tmp/rman.log`),
      sample(`expdp userid=scott/${password} directory=DATA_PUMP_DIR dumpfile=s.dmp`),
      sample(`sqlldr userid=loader/${password}@orcl control=load.ctl`),
      sample(`url=jdbc:oracle:thin:scott/${password}@db.example.com:1521:ORCL`),
      sample(`["sqlplus", "-s", "scott/${password}@orcl"]`),
      sample(`$ sqlplus -s scott/${password} @deploy.sql\n`),
      sample(`SQL> connect app_owner/${password}\nConnected.`),
      sample(`expdp scott/${password} directory=DATA_PUMP_DIR dumpfile=s.dmp`),
      sample(`rman target sys/${password} nocatalog`),
    ];
  },
  negatives: () => [
    'npm install @scope/package@1.2.3',
    'git clone git@github.com:org/repo.git',
    'see docs/setup@v2 for details',
    'sqlplus / as sysdba',
    'sqlplus /@wallet_alias',
    'sqlplus scott/$ORACLE_PASSWORD@orcl',
    'sqlplus scott/"$PW"@orcl',
    'connect to the server at deploy/main@origin',
    'userid=scott',
    'cp build/app@2x.png dist/',
    'sqlplus /nolog',
    'sqlplus @scripts/deploy.sql',
    'ls sqlplus/admin/glogin.sql',
    'rman target /',
    'expdp parfile=exp.par',
    'see rman/docs and expdp/samples/run.sh',
  ],
};
