import type { KnownCommand } from './command-words.js';

// The commands `command_credentials` knows, and which of their options carry a password.

/**
 * What an option's value holds: the password whole, or `user:password` / `user%password` (Samba)
 * or `user,password` (lftp) where only what follows the first separator is secret (without one,
 * the tool asks).
 */
export type Shape = 'whole' | 'user:password' | 'user%password' | 'user,password';

/** An option of a known command whose value is a credential. */
export interface CredentialOption {
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
export const BEARER = /(?:^|[\s'",])(?:-A|--auth-type)[\s'",=]{1,4}bearer(?![\w-])/;

/** wget's password options; `wget -d` reports each as `Setting --http-password (httppassword) to SECRET`. */
export const WGET_PASSWORDS = [
  '--password',
  '--http-password',
  '--ftp-password',
  '--proxy-password',
] as const;

/**
 * A password given as a positional argument once a short option turns batch mode on:
 * `htpasswd -b file user password`, `htpasswd -nb user password`.
 */
export interface BatchPassword {
  /** The option letter that turns batch mode on, alone or in a cluster (`-b`, `-cbB`). */
  readonly letter: string;
  /** How many positional arguments come before the password. */
  readonly before: number;
  /** An option letter that drops one positional argument (`-n`: no file, the hash is printed). */
  readonly dropsOne?: string;
  /** Options that take a value, skipped with it (`-C 12`). */
  readonly valued: readonly string[];
}

export interface CredentialCommand extends KnownCommand {
  readonly options: readonly CredentialOption[];
  readonly batch?: BatchPassword;
}

export const COMMANDS: readonly CredentialCommand[] = [
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
    after: ['docker', 'podman', 'nerdctl', 'buildah', 'skopeo', 'oras', 'registry', 'az'],
    options: [
      { name: '-p', shape: 'whole', separate: true },
      { name: '--password', shape: 'whole', separate: true, equals: true },
    ],
  },
  {
    // Clients whose long `--password` takes the next word (unlike mysql's): helm's chart repository
    // password (`helm repo add`, `pull`, `install`...), twine's upload password, Subversion's.
    names: ['helm', 'svn'],
    options: [{ name: '--password', shape: 'whole', separate: true, equals: true }],
  },
  {
    names: ['twine'],
    options: [
      { name: '-p', shape: 'whole', separate: true },
      { name: '--password', shape: 'whole', separate: true, equals: true },
    ],
  },
  {
    // skopeo's registry credentials: `--creds user:password` (`--creds user` asks).
    names: ['skopeo'],
    options: ['--creds', '--src-creds', '--dest-creds'].map((name) => ({
      name,
      shape: 'user:password',
      separate: true,
      equals: true,
    })),
  },
  {
    // OpenLDAP's clients: `-w` is the bind password (`-W` asks, `-y file` reads it).
    names: [
      'ldapsearch',
      'ldapadd',
      'ldapmodify',
      'ldapdelete',
      'ldapmodrdn',
      'ldapwhoami',
      'ldapcompare',
      'ldapexop',
    ],
    options: [{ name: '-w', shape: 'whole', attached: true, separate: true }],
  },
  {
    // ldappasswd also takes the old (`-a`) and the new (`-s`) password.
    names: ['ldappasswd'],
    options: [
      { name: '-w', shape: 'whole', attached: true, separate: true },
      { name: '-a', shape: 'whole', attached: true, separate: true },
      { name: '-s', shape: 'whole', attached: true, separate: true },
    ],
  },
  {
    // Java's key tools (`-storepass:env NAME` and `:file` name where the password is).
    names: ['keytool', 'jarsigner'],
    options: [
      '-storepass',
      '-keypass',
      '-srcstorepass',
      '-deststorepass',
      '-srckeypass',
      '-destkeypass',
      '-new',
    ].map((name) => ({ name, shape: 'whole', separate: true })),
  },
  {
    // SQL Server's command-line tools.
    names: ['sqlcmd', 'bcp', 'osql', 'isql'],
    options: [{ name: '-P', shape: 'whole', attached: true, separate: true }],
  },
  {
    names: ['zip', 'unzip', 'zipcloak', 'funzip'],
    options: [{ name: '-P', shape: 'whole', separate: true }],
  },
  {
    // 7-Zip and RAR take the password glued to `-p`; a bare `-p` asks.
    names: ['7z', '7za', '7zz', '7zr', 'rar', 'unrar'],
    options: [{ name: '-p', shape: 'whole', attached: true }],
  },
  {
    names: ['htpasswd'],
    options: [],
    batch: { letter: 'b', before: 2, dropsOne: 'n', valued: ['-C', '-r'] },
  },
  {
    // lftp's login, also in the `open` command of `-e`/`-c`: `-u user,password` (`-u user` asks).
    names: ['lftp'],
    options: [{ name: '-u', shape: 'user,password', separate: true }],
  },
  {
    // GnuPG's passphrase in batch mode (`--passphrase-file` and `--passphrase-fd` name where it is).
    names: ['gpg', 'gpg2'],
    options: [{ name: '--passphrase', shape: 'whole', separate: true, equals: true }],
  },
  {
    // OpenSSH's key passphrases: `-N` the new one, `-P` the old one (`-N ''` is none).
    names: ['ssh-keygen'],
    options: [
      { name: '-N', shape: 'whole', separate: true },
      { name: '-P', shape: 'whole', separate: true },
    ],
  },
  {
    // Database and queue clients whose `-p` and `--password` take the next word: Cassandra's cqlsh,
    // mycli, rabbitmqadmin (a bare `-p` before another option asks, as for the MongoDB tools).
    names: ['cqlsh', 'mycli', 'rabbitmqadmin'],
    options: [
      { name: '-p', shape: 'whole', separate: true },
      { name: '--password', shape: 'whole', separate: true, equals: true },
    ],
  },
  {
    // ClickHouse's client (also `clickhouse client`); InfluxDB 1.x's influx takes Go-style `-password`.
    names: ['clickhouse-client', 'clickhouse'],
    options: [{ name: '--password', shape: 'whole', separate: true, equals: true }],
  },
  {
    names: ['influx'],
    options: [
      { name: '-password', shape: 'whole', separate: true, equals: true },
      { name: '--password', shape: 'whole', separate: true, equals: true },
    ],
  },
  {
    // Vertica's vsql (`-W` asks), and openssl enc's `-k` (`-kfile` names a file).
    names: ['vsql'],
    options: [{ name: '-w', shape: 'whole', separate: true }],
  },
  {
    names: ['openssl'],
    options: [{ name: '-k', shape: 'whole', separate: true }],
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
