import { ALPHABETS } from '../alphabets.js';
import { isPlaceholder } from '../placeholder.js';
import type { RuleMatch, SecretRule } from '../types.js';
import {
  type ArgumentStart,
  argumentAfter,
  argumentEnd,
  isPlaceholderArgument,
  isShellSyntax,
} from './arguments.js';
import { isBlank, isQuote, isWhitespace, lineEnd } from './characters.js';
import {
  BEARER,
  COMMANDS,
  type CredentialCommand,
  type CredentialOption,
  WGET_PASSWORDS,
} from './command-table.js';
import { commandBefore } from './command-words.js';
import { OPTION_CLUSTER, batchPassword } from './batch-password.js';

// Passwords given on the command line of other tools than curl (curl has its own rule), in command
// text and logs: `mysql -pSECRET`, HTTPie's `-a user:pass`, `smbclient -U user%pass`, and the
// other commands of command-table.ts. Each option belongs to the command it is given to, found by
// the nearest known command name before it (see command-words.ts).

const MAX_USER = 128;
const MAX_VALUE = 256;

const BY_NAME: ReadonlyMap<string, CredentialCommand> = new Map(
  COMMANDS.flatMap((command) => command.names.map((name) => [name, command] as const)),
);

/** Every option name of the table, to turn away other dashes before looking for a command. */
const OPTION_NAMES: ReadonlySet<string> = new Set(
  COMMANDS.flatMap((command) => command.options.map((option) => option.name)),
);

/** A character of an option's name: an ASCII letter or digit, or `-`. */
function isOptionCode(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 45
  );
}

const BATCH_LETTERS = COMMANDS.flatMap((command) => command.batch?.letter ?? []);

/** A cluster of up to 8 short options holding a batch-mode letter (`-b`, `-cbB`). */
function isBatchCluster(text: string, index: number, nameEnd: number): boolean {
  if (nameEnd - index > 9) return false;
  for (let cursor = index + 1; cursor < nameEnd; cursor++) {
    const code = text.charCodeAt(cursor);
    if (!((code >= 97 && code <= 122) || (code >= 65 && code <= 90))) return false;
  }
  return BATCH_LETTERS.some((letter) => text.slice(index + 1, nameEnd).includes(letter));
}

/** Ports published by a container engine (`-p3306:3306`, `-p127.0.0.1:80:80/udp`), not a password. */
function isPortMapping(value: string): boolean {
  const ports = value.endsWith('/tcp') || value.endsWith('/udp') ? value.slice(0, -4) : value;
  if (!ports.includes(':') || ports.endsWith(':')) return false;
  for (let index = 0; index < ports.length; index++) {
    const code = ports.charCodeAt(index);
    if (!((code >= 48 && code <= 57) || code === 58 || code === 46)) return false;
  }
  return true;
}

/** Where the value of `option` begins when it follows `=`, a quote or the next blank (the name ends at `nameEnd`). */
function separatedValue(
  text: string,
  option: CredentialOption,
  nameEnd: number,
): { readonly argument: ArgumentStart; readonly separate: boolean } | undefined {
  const next = text.charCodeAt(nameEnd);
  if (next === 61)
    return option.equals ? { argument: argumentAfter(text, nameEnd + 1), separate: false } : undefined;
  const quoted = isQuote(next) || (next === 92 && isQuote(text.charCodeAt(nameEnd + 1))); // `-p"x"`, `-p\"x\"` in JSON
  if (quoted && option.attached) return { argument: argumentAfter(text, nameEnd), separate: false };
  // The next argument: after a blank, or after the option's closing quote in an argument list.
  if (!(isBlank(next) || next === 0 || quoted) || !option.separate) return undefined;
  const argument = argumentAfter(text, nameEnd);
  // Unquoted, shell syntax such as `(` or `<` is not an argument.
  if (argument.start === nameEnd || (argument.quote === 0 && isShellSyntax(text.charCodeAt(argument.start))))
    return undefined;
  return { argument, separate: true };
}

/** The option of `command` at `index`, and where its value begins. */
function optionValue(text: string, index: number, nameEnd: number, command: CredentialCommand) {
  const token = text.slice(index, nameEnd);
  for (const option of command.options) {
    if (token === option.name) {
      const value = separatedValue(text, option, nameEnd);
      if (value !== undefined) return { option, ...value };
    } else if (option.attached && token.startsWith(option.name) && option.name.length === 2) {
      // Glued to a one-letter option: the value is the rest of the word, up to the quote that
      // opened the word when the whole word is quoted (`'-pa b'` in a `bash -x` trace).
      const before = index > 0 ? text.charCodeAt(index - 1) : 0;
      const quote = isQuote(before) ? before : 0;
      const escapedQuote = quote !== 0 && text.charCodeAt(index - 2) === 92;
      return { option, argument: { start: index + 2, quote, escapedQuote }, separate: false };
    }
  }
  return undefined;
}

/** The password in `wget -d`'s report of a password option at `index`: `Setting --password (password) to SECRET`. */
function wgetSetting(text: string, index: number, nameEnd: number): RuleMatch | undefined {
  if (!text.startsWith('Setting ', index - 8) || !text.startsWith(' (', nameEnd)) return undefined;
  if (!(WGET_PASSWORDS as readonly string[]).includes(text.slice(index, nameEnd))) return undefined;
  const found = text.slice(nameEnd, nameEnd + 30).indexOf(') to '); // bounded: no search to the text's end
  if (found === -1) return undefined;
  const close = nameEnd + found;
  const start = close + 5;
  const end = lineEnd(text, start, MAX_VALUE);
  if (end === start || end - start > MAX_VALUE || isPlaceholder(text.slice(start, end))) return undefined;
  return { start, end, kind: 'password' };
}

const UNQUOTED = { start: 0, quote: 0, escapedQuote: false };

/** What separates the user from the password in each shape but `whole`. */
const SEPARATORS = { 'user:password': ':', 'user%password': '%', 'user,password': ',' } as const;

/** What an option may follow: blanks, line breaks, quotes, `,` and `[` of argument lists, and NUL (`/proc/<pid>/cmdline`). */
const OPTION_AFTER = [' ', '\t', '\n', '\r', '"', "'", ',', '[', '\0'];

/** The password given to a known command's option at `index`. */
function matchCommandCredentials(text: string, index: number): RuleMatch | undefined {
  const before = index > 0 ? text.charCodeAt(index - 1) : 32;
  // After a backtick the option is code in prose (or a command substitution), not an argument.
  const separates = isWhitespace(before) || isQuote(before) || before === 44 || before === 91 || before === 0;
  if (!separates || before === 96) return undefined;
  // Every option name goes on with a letter or a second dash (` - ` and `-1` in code stop here).
  const first = text.charCodeAt(index + 1);
  if (!((first >= 97 && first <= 122) || (first >= 65 && first <= 90) || first === 45)) return undefined;
  let nameEnd = index + 1;
  while (nameEnd < index + 24 && isOptionCode(text.charCodeAt(nameEnd))) nameEnd++;
  // Only options the table knows: the whole word, a one-letter option with its value glued on, or
  // a cluster of short options that may turn batch mode on.
  if (
    !OPTION_NAMES.has(text.slice(index, nameEnd)) &&
    !OPTION_NAMES.has(text.slice(index, index + 2)) &&
    !isBatchCluster(text, index, nameEnd)
  )
    return undefined;
  const found = commandBefore(text, index, BY_NAME);
  if (found === undefined) return wgetSetting(text, index, nameEnd);
  if (found.command.batch !== undefined)
    return batchPassword(text, index, nameEnd, found.command.batch, text.slice(found.nameEnd, index));
  const option = optionValue(text, index, nameEnd, found.command);
  if (option === undefined) return undefined;
  const { argument, separate } = option;
  // A backtick on the way is a command substitution or the end of a code span in prose.
  if (text.slice(index, argument.start).includes('`')) return undefined;
  let start = argument.start;
  // A quoted word cut short (truncated output) still has its value up to the first blank.
  const end =
    argumentEnd(text, start, argument, MAX_VALUE) ??
    (start === index + 2 ? argumentEnd(text, start, UNQUOTED, MAX_VALUE) : undefined);
  // A separate value must not be the next option.
  if (end === undefined || end === start || (separate && text.charCodeAt(start) === 45)) return undefined;
  const { shape, tokenWhen } = option.option;
  const token = tokenWhen?.test(text.slice(found.nameEnd, index)) === true;
  if (shape !== 'whole' && !token) {
    // Searched within the value only: a search to the end of the text at every option is quadratic.
    const found = text.slice(start, Math.min(end, start + MAX_USER + 1)).indexOf(SEPARATORS[shape]);
    if (found === -1) return undefined; // no password: the tool asks
    const separator = start + found;
    if (isPlaceholder(text.slice(start, separator))) return undefined;
    start = separator + 1;
    if (start === end) return undefined;
  } else if (end - start < (separate ? 4 : 3)) return undefined; // a short word is a word (`-pX` in prose)
  const value = text.slice(start, end);
  if (isPlaceholderArgument(value) || isPortMapping(value)) return undefined;
  return { start, end, kind: token ? 'authorization' : 'password' };
}

/** The regexes the matcher runs, for the regex safety test. */
export const COMMAND_CREDENTIAL_PATTERNS: readonly RegExp[] = [BEARER, OPTION_CLUSTER];

/** Passwords on the command line of other tools than curl, in command text and logs. */
export const commandCredentials: SecretRule = {
  id: 'command_credentials',
  description:
    'Passwords on the command line of other tools than curl: mysql/mysqldump/mariadb -pSECRET, HTTPie -a/--auth user:password (and bearer tokens), Samba -U user%password, sshpass -p, redis-cli -a, mongosh/mongodump -p, docker/podman/az login -p, helm/svn/twine --password, lftp -u user,password, gpg --passphrase, skopeo --creds user:password, wget --http-password (also in wget -d output), htpasswd -b file user password, ldapsearch -w, keytool -storepass, sqlcmd -P, zip -P, 7z -p',
  // A `-` after what may precede an option: the scan then tries the rule only at those dashes
  // (the anchor starts one character before the option).
  anchors: OPTION_AFTER.map((character) => `${character}-`),
  match: (text, anchorIndex) => matchCommandCredentials(text, anchorIndex + 1),
  maxLength: 1 + 24 + 8 + MAX_USER + MAX_VALUE + 2,
  positives: (fake) => {
    const password = `${fake.chars(ALPHABETS.alnum, 12)}!${fake.chars(ALPHABETS.digits, 2)}`;
    const user = fake.chars('abcdefghijklmnopqrstuvwxyz', 8);
    const sample = (text: string, kind = 'password') => ({ text, secret: password, kind });
    return [
      sample(`$ mysql -u root -p${password} app`),
      sample(`mysqldump -uroot -p'${password}' app > app.sql`),
      sample(`["mariadb", "-h", "db", "-p${password}"]`),
      sample(`http -a ${user}:${password} POST api.example.com/v1`),
      sample(`https -A bearer -a '${password}' example.com`, 'authorization'),
      sample(`smbclient //fs/share -U 'CORP\\${user}%${password}' -c ls`),
      sample(`sshpass -p "${password}" ssh ${user}@10.0.0.5`),
      sample(`docker login -u ${user} -p ${password} ghcr.io`),
      sample(`wget --http-user ${user} --http-password ${password} https://a`),
      sample(`Setting --http-password (httppassword) to ${password}\n`),
      sample(`htpasswd -nbB ${user} ${password}`),
      sample(`ldapsearch -x -D cn=admin,dc=example -w '${password}' -b dc=example`),
      sample(`keytool -list -keystore ks.p12 -storepass ${password}`),
      sample(`7z x -p${password} backup.7z`),
    ];
  },
  negatives: () => [
    'mysql -u root -p app',
    'mysql -u root -p"$MYSQL_PASSWORD" app',
    'docker run --name mysql -p3306:3306 mysql:8',
    'mkdir -p /var/lib/mysql',
    'http -a alice example.com',
    'ls -a ~',
    'smbclient //fs/share -U alice',
    'pip install -U requests',
    'docker run -p 8080:80 nginx',
    'mongosh -u root -p --authenticationDatabase admin',
    'wget --ask-password --user alice https://a',
    'Setting --tries (tries) to 3',
    'htpasswd -c /etc/nginx/.htpasswd alice',
    'git checkout -b feature/login main',
    'ldapsearch -x -W -b dc=example',
    'scp -P 2222 file host:/tmp',
  ],
};
