import { ALPHABETS } from '../alphabets.js';
import { isPlaceholder } from '../placeholder.js';
import type { RuleMatch, SecretRule } from '../types.js';
import { isBlank, lineEnd } from './characters.js';
import { credentialKind } from './key-names.js';

// Environment variables listed as name/value pairs: `kubectl get pod -o yaml` (`- name: X` then
// `value: Y`), ECS task definitions and Kubernetes JSON (`{"name": "X", "value": "Y"}`), AWS SSM
// parameters (`"Name": "/prod/db/password", ... "Value": "Y"`), hosting APIs (`"key"`/`"value"`).

const MAX_NAME = 128;
const MAX_GAP = 256;
const MAX_VALUE = 512;
/** After the anchor word: an optional closing quote, the `:`, spaces, an optional opening quote. */
const NAME_FIELD = /"?[ \t]*:[ \t]*"?([A-Za-z0-9_./-]{1,128})/y;
/** The value key that follows; `valueFrom:` (a reference, no value) does not match. */
const VALUE_KEY = /(?:^|[\s{,"])(?:value|Value)"?[ \t]*:[ \t]*/g;

/** The regexes of the name/value matcher (checked for linear time by a test). */
export const ENV_PAIR_PATTERNS: readonly RegExp[] = [NAME_FIELD, VALUE_KEY];

function isWordCode(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95
  );
}

/** End of a quoted value starting after its quote at `start`, or -1 (unterminated, a line break, too long). */
function quotedEnd(text: string, start: number): number {
  for (let end = start; end < text.length && end - start <= MAX_VALUE; end++) {
    const code = text.charCodeAt(end);
    if (code === 34) return end;
    if (code === 10 || code === 13) return -1;
    if (code === 92) end++;
  }
  return -1;
}

/** End of an unquoted (YAML) value: the end of the line, trailing spaces dropped. */
function yamlValueEnd(text: string, start: number): number {
  let end = lineEnd(text, start, MAX_VALUE);
  while (end > start && isBlank(text.charCodeAt(end - 1))) end--;
  return end;
}

function matchEnvPair(text: string, index: number): RuleMatch | undefined {
  if (index > 0 && isWordCode(text.charCodeAt(index - 1))) return undefined; // `hostname:`, `monkey:`
  const word = text.charCodeAt(index) === 107 || text.charCodeAt(index) === 75 ? 3 : 4; // key / name
  NAME_FIELD.lastIndex = index + word;
  const field = NAME_FIELD.exec(text);
  if (field === null) return undefined;
  const name = field[1] as string;
  const kind = credentialKind(name.slice(name.lastIndexOf('/') + 1));
  if (kind === undefined) return undefined;
  const nameEnd = NAME_FIELD.lastIndex;
  // The value key must follow within the same object or list item.
  const window = text.slice(nameEnd, Math.min(text.length, nameEnd + MAX_GAP));
  VALUE_KEY.lastIndex = 0;
  const key = VALUE_KEY.exec(window);
  if (key === null) return undefined;
  const between = window.slice(0, key.index);
  if (/[{}[\]]|\n[ \t]*-/.test(between)) return undefined;
  const start = nameEnd + VALUE_KEY.lastIndex;
  let valueStart = start;
  let valueEnd: number;
  if (text.charCodeAt(start) === 34) {
    valueStart = start + 1;
    valueEnd = quotedEnd(text, valueStart);
  } else if ((key[0] as string).includes('"') || text.charCodeAt(start) === 39) {
    return undefined; // JSON values that are not strings (numbers, null), and single quotes
  } else {
    valueEnd = yamlValueEnd(text, start);
  }
  if (valueEnd < 0 || valueEnd - valueStart < 4 || valueEnd - valueStart > MAX_VALUE) return undefined;
  if (isPlaceholder(text.slice(valueStart, valueEnd))) return undefined;
  return { start: valueStart, end: valueEnd, kind };
}

/** Credentials in name/value lists of environment variables and parameters. */
export const envPair: SecretRule = {
  id: 'env_pair',
  description:
    'Values of name/value pairs whose name is a credential: Kubernetes and ECS env lists (YAML and JSON), AWS SSM parameters, hosting-provider env APIs',
  anchors: ['name:', 'name":', 'Name:', 'Name":', 'key:', 'key":', 'Key:', 'Key":'],
  match: matchEnvPair,
  maxLength: 8 + MAX_NAME + MAX_GAP + MAX_VALUE + 2,
  positives: (fake) => {
    const password = `${fake.chars(ALPHABETS.alnum, 12)}!${fake.chars(ALPHABETS.digits, 2)}`;
    const token = fake.chars(ALPHABETS.base64url, 40);
    return [
      {
        text: `    env:\n    - name: DB_PASSWORD\n      value: ${password}\n    - name: PORT\n      value: "8080"\n`,
        secret: password,
        kind: 'password',
      },
      {
        text: `"environment": [{"name": "API_TOKEN", "value": "${token}"}, {"name": "REGION", "value": "eu-west-1"}]`,
        secret: token,
        kind: 'token',
      },
      {
        text: `{\n  "Parameter": {\n    "Name": "/prod/db/password",\n    "Type": "SecureString",\n    "Value": "${password}",\n    "Version": 3\n  }\n}`,
        secret: password,
        kind: 'password',
      },
      {
        text: `[{"key":"STRIPE_SECRET","value":"${token}","target":["production"]}]`,
        secret: token,
        kind: 'secret',
      },
    ];
  },
  negatives: () => [
    '- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef:\n      name: db\n      key: password\n',
    '{"name": "PORT", "value": "8080"}',
    '{"name": "API_TOKEN"}, {"name": "HOST", "value": "db.internal"}',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell-style placeholder is the sample
    '- name: DB_PASSWORD\n  value: ${DB_PASSWORD}\n',
    'hostname: api_token\nvalue: something-long',
    '{"name": "MAX_TOKENS", "value": 4096}',
  ],
};
