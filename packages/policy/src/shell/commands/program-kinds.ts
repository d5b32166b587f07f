/** Shells that run a script given with `-c`, a file operand, or their standard input. */
export const SHELLS: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'ash',
  'fish',
  'csh',
  'tcsh',
  'rbash',
]);

/** Script interpreters: inline code (`-c`, `-e`) or standard input makes them run arbitrary code. */
export const INTERPRETERS: ReadonlyMap<string, readonly string[]> = new Map([
  ['python', ['-c']],
  ['python2', ['-c']],
  ['python3', ['-c']],
  ['perl', ['-e', '-E']],
  ['ruby', ['-e']],
  ['node', ['-e', '-p', '--eval', '--print']],
  ['nodejs', ['-e', '-p', '--eval', '--print']],
  ['deno', ['eval']],
  ['bun', ['-e', '--eval']],
  ['php', ['-r']],
  ['lua', ['-e']],
  ['Rscript', ['-e']],
  ['osascript', ['-e']],
  ['pwsh', ['-c', '-command', '-Command', '-EncodedCommand', '-encodedcommand']],
  ['powershell', ['-c', '-command', '-Command', '-EncodedCommand', '-encodedcommand']],
  ['cmd', ['/c', '/C', '/k', '/K']],
]);

/** Programs that fetch data from the network. */
export const FETCHERS: ReadonlySet<string> = new Set([
  'curl',
  'wget',
  'fetch',
  'aria2c',
  'http',
  'https',
  'xh',
  'lwp-request',
  'GET',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'ftp',
  'tftp',
  'ssh',
  'scp',
  'Invoke-WebRequest',
  'iwr',
  'Invoke-RestMethod',
  'irm',
]);

/** Programs that decode or unpack text, the usual way to hide a command from pattern matching. */
export const DECODERS: ReadonlySet<string> = new Set([
  'base64',
  'base32',
  'basenc',
  'xxd',
  'uudecode',
  'openssl',
  'gpg',
  'rev',
  'zcat',
  'gunzip',
  'gzip',
  'bzcat',
  'bunzip2',
  'xzcat',
  'unxz',
  'xz',
  'zstdcat',
  'tr',
  'od',
  'printf',
]);

/** Variables whose value changes which program runs or what a shell does at start-up. */
export const DANGEROUS_VARIABLE =
  /^(PATH|IFS|ENV|BASH_ENV|CDPATH|PS4|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|GLOBIGNORE|NODE_OPTIONS|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|EDITOR|VISUAL|PAGER|LESSOPEN|LESSCLOSE|MANPAGER|BROWSER|SSH_ASKPASS|SUDO_ASKPASS|GIT_[A-Z_]*|LD_[A-Z_]*|DYLD_[A-Z_]*|[A-Z_]*_COMMAND|[A-Z_]*_PAGER|[A-Z_]*_EDITOR|BASH_FUNC_.*)$/;
