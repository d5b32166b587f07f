import { ALPHABETS } from '../alphabets.js';
import { isPlaceholder } from '../placeholder.js';
import type { RuleMatch, SecretRule } from '../types.js';
import { type ArgumentStart, argumentAfter, argumentEnd } from './arguments.js';
import { isBlank, isQuote, isWhitespace } from './characters.js';
import { type KnownCommand, commandBefore } from './command-words.js';

// Passwords given on the command line of other tools than curl (curl has its own rule):
// `mysql -pSECRET`, HTTPie's `-a user:pass`, `smbclient -U user%pass`, in command text and logs. Each option belongs to the command it is given to,
// found by the nearest known command name before it (see command-words.ts).

const MAX_USER = 128;
const MAX_VALUE = 256;

/**
 * What an option's value holds: the password whole, or `user:password` / `user%password` (Samba)
 * where only what follows the first separator is secret (without one, the tool asks).
 */
type Shape = 'whole' | 'user:password' | 'user%password';

/** An option of a known command whose value is a credential. */
interface CredentialOption {
  /** The option with its dashes: `-p`, `--password`. */
  readonly name: string;
  readonly shape: Shape;
  /** The value may be glued to a one-letter option (`-pSECRET`). */
  readonly attached?: boolean;
  /** The value may be the next argument (`-p SECRET`). */
  readonly separate?: boolean;
  /** The value may follow `=` (`--password=SECRET`). */
  readonly equals?: boolean;
  /** When the command before the option matches this, the whole value is a token (`http -A bearer -a TOKEN`). */
  readonly tokenWhen?: RegExp;
}

/** HTTPie's bearer auth type, given before the credential: `-A bearer`, `--auth-type=bearer`. */
const BEARER = /(?:^|[\s'",])(?:-A|--auth-type)[\s'",=]{1,4}bearer(?![\w-])/;

/** wget's password options; `wget -d` reports each as `Setting --http-password (httppassword) to SECRET`. */
const WGET_PASSWORDS = ['--password', '--http-password', '--ftp-password', '--proxy-password'] as const;

interface CredentialCommand extends KnownCommand {
  readonly options: readonly CredentialOption[];
}

const COMMANDS: readonly CredentialCommand[] = [
  {
    // `-p` takes only a glued value: a bare `-p` asks for the password, the next word is a database.
    names: [
      'mysql',
      'mysqldump',
      'mysqladmin',
      'mysqlimport',
      'mysqlshow',
      'mysqlcheck',
      'mysqlslap',
      'mysqlpump',
      'mysqlbinlog',
      'mariadb',
      'mariadb-dump',
      'mariadb-admin',
      'mariadb-import',
      'mariadb-show',
      'mariadb-check',
      'mariadb-slap',
      'mariadb-binlog',
    ],
    options: [
      { name: '-p', shape: 'whole', attached: true },
      { name: '--password', shape: 'whole', equals: true },
    ],
  },
  {
    // HTTPie (and xh, which takes its options): `-a user` asks for the password.
    names: ['http', 'https', 'xh', 'xhs'],
    options: [
      { name: '-a', shape: 'user:password', attached: true, separate: true, tokenWhen: BEARER },
      { name: '--auth', shape: 'user:password', separate: true, equals: true, tokenWhen: BEARER },
    ],
  },
  {
    // Samba's clients: `-U user%password` (`-U 'DOMAIN\user%password'`); `-U user` asks.
    names: ['smbclient', 'rpcclient', 'smbcacls', 'smbcquotas', 'smbget', 'smbtree', 'net'],
    options: [
      { name: '-U', shape: 'user%password', attached: true, separate: true },
      { name: '--user', shape: 'user%password', separate: true, equals: true },
      { name: '--password', shape: 'whole', separate: true, equals: true },
    ],
  },
  {
    // `--password=...` is also an assignment; `--ask-password` asks.
    names: ['wget', 'wget2'],
    options: WGET_PASSWORDS.map((name) => ({ name, shape: 'whole', separate: true, equals: true })),
  },
  {
    names: ['sshpass'],
    options: [{ name: '-p', shape: 'whole', attached: true, separate: true }],
  },
  {
    names: ['redis-cli', 'valkey-cli', 'keydb-cli'],
    options: [
      { name: '-a', shape: 'whole', separate: true },
      { name: '--pass', shape: 'whole', separate: true },
    ],
  },
  {
    // The MongoDB shells and database tools: a bare `-p` (before another option or at the end) asks.
    names: [
      'mongo',
      'mongosh',
      'mongodump',
      'mongorestore',
      'mongoexport',
      'mongoimport',
      'mongostat',
      'mongotop',
      'mongofiles',
    ],
    options: [
      { name: '-p', shape: 'whole', separate: true },
      { name: '--password', shape: 'whole', separate: true, equals: true },
    ],
  },
  {
    // Container registry logins: `-p` of `docker run` publishes ports, so only the `login` subcommand.
    names: ['login'],
    after: ['docker', 'podman', 'nerdctl', 'buildah', 'skopeo', 'oras', 'registry'],
    options: [
      { name: '-p', shape: 'whole', separate: true },
      { name: '--password', shape: 'whole', separate: true, equals: true },
    ],
  },
  {
    // winbind's check of a user's password: `wbinfo -a user%password`.
    names: ['wbinfo'],
    options: [
      { name: '-a', shape: 'user%password', separate: true },
      { name: '--authenticate', shape: 'user%password', separate: true, equals: true },
    ],
  },
];

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

/** `(` `)` `<` `>` `|` `;` `&`: shell syntax, not the first character of an unquoted argument. */
const SHELL_SYNTAX: ReadonlySet<number> = new Set([40, 41, 60, 62, 124, 59, 38]);

/** Ports published by a container engine (`-p3306:3306`), not a password. */
const PORT_MAPPING = /^[0-9.:]*[0-9]:[0-9]+(?:\/(?:tcp|udp))?$/;

/** Where the value of `option` begins when it follows `=`, a quote or the next blank (the name ends at `nameEnd`). */
function separatedValue(
  text: string,
  option: CredentialOption,
  nameEnd: number,
): { readonly argument: ArgumentStart; readonly separate: boolean } | undefined {
  const next = text.charCodeAt(nameEnd);
  if (next === 61)
    return option.equals ? { argument: argumentAfter(text, nameEnd + 1), separate: false } : undefined;
  if (isQuote(next) && option.attached) return { argument: argumentAfter(text, nameEnd), separate: false };
  // The next argument: after a blank, or after the option's closing quote in an argument list.
  if (!(isBlank(next) || isQuote(next)) || !option.separate) return undefined;
  const argument = argumentAfter(text, nameEnd);
  // Unquoted, shell syntax such as `(` or `<` is not an argument.
  if (
    argument.start === nameEnd ||
    (argument.quote === 0 && SHELL_SYNTAX.has(text.charCodeAt(argument.start)))
  )
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
      // Glued to a one-letter option: the value is the rest of the word.
      return { option, argument: { start: index + 2, quote: 0, escapedQuote: false }, separate: false };
    }
  }
  return undefined;
}

/** The password in `wget -d`'s report of a password option at `index`: `Setting --password (password) to SECRET`. */
function wgetSetting(text: string, index: number, nameEnd: number): RuleMatch | undefined {
  if (!text.startsWith('Setting ', index - 8) || !text.startsWith(' (', nameEnd)) return undefined;
  if (!(WGET_PASSWORDS as readonly string[]).includes(text.slice(index, nameEnd))) return undefined;
  const close = text.indexOf(') to ', nameEnd);
  if (close === -1 || close > nameEnd + 24) return undefined;
  const start = close + 5;
  let end = start;
  while (
    end < text.length &&
    end - start <= MAX_VALUE &&
    text.charCodeAt(end) !== 10 &&
    text.charCodeAt(end) !== 13
  )
    end++;
  if (end === start || end - start > MAX_VALUE || isPlaceholder(text.slice(start, end))) return undefined;
  return { start, end, kind: 'password' };
}

/** The password given to a known command's option at `index`. */
function matchCommandCredentials(text: string, index: number): RuleMatch | undefined {
  const before = index > 0 ? text.charCodeAt(index - 1) : 32;
  if (!(isWhitespace(before) || isQuote(before) || before === 44 || before === 91)) return undefined;
  let nameEnd = index + 1;
  while (nameEnd < index + 24 && isOptionCode(text.charCodeAt(nameEnd))) nameEnd++;
  // Only options the table knows: the whole word, or a one-letter option with its value glued on.
  if (!OPTION_NAMES.has(text.slice(index, nameEnd)) && !OPTION_NAMES.has(text.slice(index, index + 2)))
    return undefined;
  const found = commandBefore(text, index, BY_NAME);
  if (found === undefined) return wgetSetting(text, index, nameEnd);
  const option = optionValue(text, index, nameEnd, found.command);
  if (option === undefined) return undefined;
  const { argument, separate } = option;
  let start = argument.start;
  const end = argumentEnd(text, start, argument, MAX_VALUE);
  // A separate value must not be the next option.
  if (end === undefined || end === start || (separate && text.charCodeAt(start) === 45)) return undefined;
  const { shape, tokenWhen } = option.option;
  const token = tokenWhen?.test(text.slice(found.nameEnd, index)) === true;
  if (shape !== 'whole' && !token) {
    const separator = text.indexOf(shape === 'user:password' ? ':' : '%', start);
    if (separator === -1 || separator >= end || separator - start > MAX_USER) return undefined; // the tool asks
    if (isPlaceholder(text.slice(start, separator))) return undefined;
    start = separator + 1;
    if (start === end) return undefined;
  } else if (separate && end - start < 4) return undefined; // a short separate word is a word
  const value = text.slice(start, end);
  if (isPlaceholder(value) || PORT_MAPPING.test(value)) return undefined;
  return { start, end, kind: token ? 'authorization' : 'password' };
}

/** Passwords on the command line of other tools than curl, in command text and logs. */
export const commandCredentials: SecretRule = {
  id: 'command_credentials',
  description:
    'Passwords on the command line of database and other clients: mysql/mysqldump/mariadb -pSECRET',
  // Every `-`, as for curl: the option names are short and common.
  anchors: ['-'],
  match: matchCommandCredentials,
  maxLength: 24 + 8 + MAX_USER + MAX_VALUE + 2,
  positives: (fake) => {
    const password = `${fake.chars(ALPHABETS.alnum, 12)}!${fake.chars(ALPHABETS.digits, 2)}`;
    const user = fake.chars('abcdefghijklmnopqrstuvwxyz', 8);
    return [
      { text: `$ mysql -u root -p${password} app`, secret: password, kind: 'password' },
      { text: `mysqldump -uroot -p'${password}' app > app.sql`, secret: password, kind: 'password' },
      { text: `["mariadb", "-h", "db", "-p${password}"]`, secret: password, kind: 'password' },
      { text: `http -a ${user}:${password} POST api.example.com/v1`, secret: password, kind: 'password' },
      { text: `https -A bearer -a '${password}' example.com`, secret: password, kind: 'authorization' },
      {
        text: `smbclient //fs/share -U 'CORP\\${user}%${password}' -c ls`,
        secret: password,
        kind: 'password',
      },
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
  ],
};
