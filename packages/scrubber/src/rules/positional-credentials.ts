import { ALPHABETS } from '../alphabets.js';
import type { RuleMatch, SecretRule } from '../types.js';
import { argumentAfter, argumentEnd, isPlaceholderArgument, isShellSyntax } from './arguments.js';
import { isBlank, isQuote, isWhitespace } from './characters.js';
import { type KnownCommand, commandBefore } from './command-words.js';
import { credentialKind } from './key-names.js';
import { type ListCommand, listCommandAround, nextBlockItem, nextWrappedItem } from './list-command.js';

// Passwords a command takes as a word after a keyword rather than after an option:
// NetworkManager's `nmcli device wifi connect SSID password WORD` and its secret properties
// (`wifi-sec.psk WORD`, `802-1x.password WORD`), and `rabbitmqctl add_user NAME PASSWORD`.

const MAX_WORD = 48;
const MAX_VALUE = 256;

/** nmcli's keyword and the connection properties that hold a secret (long and short setting names). */
const NMCLI_SECRETS: ReadonlySet<string> = new Set(
  ['password'].concat(
    ['wifi-sec', '802-11-wireless-security'].flatMap((setting) =>
      ['psk', 'leap-password', 'wep-key0', 'wep-key1', 'wep-key2', 'wep-key3'].map(
        (name) => `${setting}.${name}`,
      ),
    ),
    ['802-1x.password', '802-1x.private-key-password', '802-1x.phase2-private-key-password', '802-1x.pin'],
    ['pppoe.password', 'gsm.password', 'gsm.pin', 'cdma.password'],
  ),
);

/** rabbitmqctl's subcommands whose second argument is the password (the first is the user). */
const RABBITMQ_SUBCOMMANDS: ReadonlySet<string> = new Set([
  'add_user',
  'change_password',
  'authenticate_user',
]);

const NMCLI: ReadonlyMap<string, KnownCommand> = new Map([
  ['nmcli', { names: ['nmcli'] }],
  ['nmcli>', { names: ['nmcli>'] }], // the prompt of `nmcli connection edit`
]);
const RABBITMQCTL: ReadonlyMap<string, KnownCommand> = new Map([['rabbitmqctl', { names: ['rabbitmqctl'] }]]);

/** nmcli options whose argument is a list of fields to print (`-f 802-11-wireless-security.psk`), not a setting. */
const FIELD_OPTIONS: ReadonlySet<string> = new Set(['-f', '--fields', '-g', '--get-values']);

/** The word before the one at `start` (blanks and quotes between skipped), at most 32 characters. */
function previousWord(text: string, start: number): string {
  let end = start;
  while (
    end > 0 &&
    start - end < 8 &&
    (isWhitespace(text.charCodeAt(end - 1)) || isQuote(text.charCodeAt(end - 1)))
  )
    end--;
  let begin = end;
  while (
    begin > 0 &&
    end - begin < 32 &&
    !isWhitespace(text.charCodeAt(begin - 1)) &&
    !isQuote(text.charCodeAt(begin - 1))
  )
    begin--;
  return text.slice(begin, end);
}

/** `aws configure set` settings that hold a secret (the name may follow `default.` or `profile.NAME.`). */
const AWS_SECRETS: ReadonlySet<string> = new Set([
  'aws_secret_access_key',
  'aws_session_token',
  'aws_security_token',
]);
const AWS: ReadonlyMap<string, KnownCommand> = new Map([['aws', { names: ['aws'] }]]);

/** The setting a word of `aws configure set` names, without its `default.` or `profile.NAME.`. */
function awsSetting(word: string): string {
  if (word.startsWith('default.')) return word.slice(8);
  if (!word.startsWith('profile.')) return word;
  return word.slice(word.lastIndexOf('.') + 1);
}

/**
 * Whether the words from the end of `aws` to `keyStart` are `configure` and then `set` (right
 * before the setting), with only options between (`--profile prod`, `--region=x`, `--debug`).
 */
function isConfigureSet(text: string, nameEnd: number, keyStart: number): boolean {
  const words = text
    .slice(nameEnd, keyStart)
    .split(/[\s"',[\]]+/)
    .filter((word) => word.length > 0 && word !== '\\' && word !== '-'); // `-`: a YAML list item
  let expected = 'configure';
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (word === expected) {
      if (expected === 'set') return i === words.length - 1;
      expected = 'set';
      continue;
    }
    if (!word.startsWith('-')) return false;
    const value = words[i + 1];
    if (!word.includes('=') && value !== undefined && !value.startsWith('-') && value !== expected) i++;
  }
  return false;
}

/** The next argument after `cursor` on the command line: its span and whether it is quoted; undefined when there is none. */
/**
 * Past a backslash that continues the line (`\` and a line break, CRLF too) after `cursor`, to
 * the blank before the next line's first word; `cursor` when there is none. The next line must
 * be indented (as a continued command is), so that a blank precedes the argument.
 */
function pastContinuation(text: string, cursor: number): number {
  let at = cursor;
  while (at - cursor < 8 && isBlank(text.charCodeAt(at))) at++;
  if (text.charCodeAt(at) !== 92) return cursor;
  let next = at + 1;
  if (text.charCodeAt(next) === 13) next++;
  if (text.charCodeAt(next) !== 10 || !isBlank(text.charCodeAt(next + 1))) return cursor;
  next++;
  while (next - at < 64 && isBlank(text.charCodeAt(next + 1))) next++;
  return next;
}

function nextArgument(
  text: string,
  from: number,
): { start: number; end: number; quoted: boolean } | undefined {
  const cursor = pastContinuation(text, from);
  const argument = argumentAfter(text, cursor);
  if (argument.start === cursor) return undefined;
  if (text.slice(cursor, argument.start).includes('`')) return undefined;
  const end = argumentEnd(text, argument.start, argument, MAX_VALUE);
  if (end === undefined || end === argument.start) return undefined;
  return { start: argument.start, end, quoted: argument.quote !== 0 };
}

/** Whether an argument can be a value: not an option, shell syntax or a placeholder, 4 characters or more. */
function isValue(text: string, argument: { start: number; end: number; quoted: boolean }): boolean {
  const first = text.charCodeAt(argument.start);
  if (!argument.quoted && (first === 45 || isShellSyntax(first))) return false;
  return (
    argument.end - argument.start >= 4 && !isPlaceholderArgument(text.slice(argument.start, argument.end))
  );
}

/**
 * The argument list the keyword at `start` is an item of, when its command is named in a key
 * beside the list (`"command": "aws"` after `"args": [...]`): only for a keyword quoted whole, an
 * unquoted flow-list item (`[configure, set, KEY, VALUE]`) or a YAML block item (`- KEY`).
 */
function listCommand(text: string, start: number, inList: boolean): ListCommand | undefined {
  return inList ? listCommandAround(text, start) : undefined;
}

/** The value after the keyword (ending at `end`): the next argument, or the next item of a list. */
function valueAfter(
  text: string,
  end: number,
  list: ListCommand | undefined,
): { start: number; end: number; quoted: boolean } | undefined {
  let value = nextArgument(text, end);
  if (value === undefined && list !== undefined) {
    const item = nextBlockItem(text, end) ?? nextWrappedItem(text, end);
    if (item !== undefined) value = nextArgument(text, item);
  }
  if (value === undefined || list === undefined || value.quoted) return value;
  // An unquoted flow-list item ends at `,` or `]`.
  let last = value.end;
  while (last > value.start && /[,\]]/.test(text.charAt(last - 1))) last--;
  return { ...value, end: last };
}

function matchPositional(text: string, anchor: number): RuleMatch | undefined {
  // The keyword is the whole word the anchor is in (`password`, `wifi-sec.psk`, `add_user`).
  let start = anchor;
  while (start > 0 && anchor - start < MAX_WORD) {
    const code = text.charCodeAt(start - 1);
    if (isWhitespace(code) || isQuote(code)) break;
    start--;
  }
  let end = anchor;
  while (end < text.length && end - start <= MAX_WORD) {
    const code = text.charCodeAt(end);
    if (isWhitespace(code) || isQuote(code) || code === 44) break;
    end++;
  }
  const word = text.slice(start, end);
  const before = start > 0 ? text.charCodeAt(start - 1) : 32;
  const after = text.charCodeAt(end);
  // A word between blanks, or one quoted whole (an argument list: `["nmcli", ..., "wifi-sec.psk", "..."]`),
  // or an item of an unquoted YAML flow list (`[configure, set, KEY, VALUE]`).
  const quoted = isQuote(before) && after === before;
  const flowItem = isWhitespace(before) && after === 44;
  if (!quoted && !flowItem && (!isWhitespace(before) || !isWhitespace(after))) return undefined;
  if (quoted) end++; // the next argument is looked for after the closing quote
  const blockItem = text.charCodeAt(start - 2) === 45 && isBlank(before);
  const inList = quoted || flowItem || blockItem;
  const setting = awsSetting(word);
  if (AWS_SECRETS.has(setting)) {
    const aws = commandBefore(text, start, AWS);
    let list: ListCommand | undefined;
    if (aws === undefined || !isConfigureSet(text, aws.nameEnd, start)) {
      list = listCommand(text, start, inList);
      if (list?.name !== 'aws' || !isConfigureSet(text, list.listStart, start)) return undefined;
    } else if (flowItem) return undefined;
    const value = valueAfter(text, end, list);
    return value !== undefined && isValue(text, value)
      ? { start: value.start, end: value.end, kind: credentialKind(setting) ?? 'password' }
      : undefined;
  }
  if (NMCLI_SECRETS.has(word)) {
    if (FIELD_OPTIONS.has(previousWord(text, start))) return undefined;
    let list: ListCommand | undefined;
    if (commandBefore(text, start, NMCLI) === undefined) {
      list = listCommand(text, start, inList);
      if (list?.name !== 'nmcli') return undefined;
    } else if (flowItem) return undefined;
    const value = valueAfter(text, end, list);
    return value !== undefined && isValue(text, value)
      ? { start: value.start, end: value.end, kind: 'password' }
      : undefined;
  }
  if (!RABBITMQ_SUBCOMMANDS.has(word)) return undefined;
  let list: ListCommand | undefined;
  if (commandBefore(text, start, RABBITMQCTL) === undefined) {
    list = listCommand(text, start, inList);
    if (list?.name !== 'rabbitmqctl') return undefined;
  } else if (flowItem) return undefined;
  const name = valueAfter(text, end, list);
  if (name === undefined || text.charCodeAt(name.start) === 45) return undefined;
  const nameEnd = name.quoted
    ? name.end + 1
    : list !== undefined && text.charCodeAt(name.end) === 44
      ? name.end + 1
      : name.end;
  const value = valueAfter(text, nameEnd, list);
  return value !== undefined && isValue(text, value)
    ? { start: value.start, end: value.end, kind: 'password' }
    : undefined;
}

/** Passwords given as a word after a keyword: nmcli's `password`/`wifi-sec.psk`..., rabbitmqctl's `add_user NAME PASSWORD`. */
export const positionalCredentials: SecretRule = {
  id: 'positional_credentials',
  description:
    'Passwords given after a keyword: nmcli device wifi connect SSID password WORD, nmcli wifi-sec.psk / 802-1x.password WORD, rabbitmqctl add_user / change_password NAME PASSWORD, aws configure set aws_secret_access_key / aws_session_token VALUE',
  // The properties are anchored on a part the one pass finds (`password`, `-sec.psk`, `gsm.`,
  // the aws setting names); the matcher takes the whole word around the anchor.
  anchors: [
    'password',
    '-sec.psk',
    '-security.psk',
    '.wep-key',
    '-1x.pin',
    'gsm.',
    'add_user',
    'authenticate_user',
    '_secret_access_key',
    '_session_token',
    '_security_token',
  ],
  match: matchPositional,
  maxLength: MAX_WORD + 8 + 2 * (MAX_VALUE + 2 + 80), // 80: a continued line before a value
  positives: (fake) => {
    const password = `${fake.chars(ALPHABETS.alnum, 12)}!${fake.chars(ALPHABETS.digits, 2)}`;
    const sample = (text: string) => ({ text, secret: password, kind: 'password' });
    return [
      sample(`nmcli device wifi connect HomeNet password ${password}`),
      sample(`nmcli con modify corp wifi-sec.psk '${password}'`),
      sample(`nmcli con add type wifi ssid corp 802-1x.password ${password} 802-1x.identity bob`),
      sample(`rabbitmqctl add_user deploy ${password}`),
      sample(`sudo rabbitmqctl change_password deploy "${password}"`),
      {
        text: `aws configure set aws_secret_access_key ${password} --profile ci`,
        secret: password,
        kind: 'aws_secret_key',
      },
    ];
  },
  negatives: () => [
    'nmcli device wifi connect HomeNet --ask',
    'nmcli con modify corp wifi-sec.psk "$WIFI_PSK"',
    'Enter the password below',
    'rabbitmqctl add_user deploy',
    'rabbitmqctl set_user_tags deploy administrator',
    'aws configure get aws_secret_access_key --profile ci',
  ],
};
