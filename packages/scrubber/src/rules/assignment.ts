import { ALPHABETS } from '../alphabets.js';
import type { RuleMatch, SecretRule } from '../types.js';
import { ASSIGNMENT_VALUE_PATTERNS, MAX_VALUE, matchValue } from './assignment-value.js';
import { isNameCode, isQuote } from './characters.js';
import { arrowKey } from './arrow-pairs.js';
import { credentialKind, hasCredentialTail } from './key-names.js';
import { endsWithSignature, presignedSignatureKind } from './presigned-signature.js';
import { MAX_ESCAPES, MAX_WRAP } from './value-ends.js';

// The assignment rule: the key before a `:` or `=` (here) and the value after it
// (assignment-value.ts).

const MAX_KEY = 64;

/** The regexes the assignment matcher uses internally (checked for linear time by a test). */
export const ASSIGNMENT_PATTERNS: readonly RegExp[] = [...ASSIGNMENT_VALUE_PATTERNS];

/**
 * Matches `key = value`, `key: value`, `"key": "value"`, `key=value&` at a `:` or `=` whose key
 * name holds a credential, and returns the value's span. The value must look like a literal
 * (quoted, or on an .env/YAML line, or not an identifier), not code or a placeholder.
 */
export function matchAssignment(text: string, separator: number): RuleMatch | undefined {
  const separatorCode = text.charCodeAt(separator);
  const next = text.charCodeAt(separator + 1);
  const before = separator > 0 ? text.charCodeAt(separator - 1) : 0;
  if (separatorCode === 61 && next === 62) {
    // `'password' => 'x'` in a Perl, Ruby or PHP dump.
    const pair = arrowKey(text, separator);
    const kind = pair === undefined ? undefined : credentialKind(pair.key);
    if (pair === undefined || kind === undefined) return undefined;
    return matchValue(text, separator + 2, { ...pair, kind, inQuery: false, separator: separatorCode });
  }
  if (
    separatorCode === 61 &&
    (next === 61 || next === 62 || before === 61 || before === 33 || before === 60 || before === 62)
  )
    return undefined;
  if (separatorCode === 58 && (next === 58 || before === 58 || next === 47)) return undefined;
  // Walk back over `:` of `:=`, spaces, closing quotes and JSON escapes to the key name.
  let keyEnd = separator;
  if (separatorCode === 61 && before === 58) keyEnd--;
  // (JSON escaped n levels deep puts 2^n - 1 backslashes before each quote: `\\\"` at three.)
  for (let steps = 0; steps < MAX_ESCAPES + 4 && keyEnd > 0; steps++) {
    const code = text.charCodeAt(keyEnd - 1);
    if (code === 32 || code === 9 || isQuote(code) || code === 92) keyEnd--;
    else break;
  }
  if (!hasCredentialTail(text, keyEnd) && !endsWithSignature(text, keyEnd)) return undefined;
  let keyStart = keyEnd;
  while (keyStart > 0 && keyEnd - keyStart < MAX_KEY && isNameCode(text.charCodeAt(keyStart - 1))) keyStart--;
  if (text.startsWith('//', keyStart - 2)) return undefined; // URL userinfo: the url_password rule's
  const key = text.slice(keyStart, keyEnd);
  const kind = credentialKind(key) ?? presignedSignatureKind(text, key, keyStart);
  if (kind === undefined) return undefined;
  const precedingCode = text.charCodeAt(keyStart - 1);
  const inQuery = precedingCode === 63 || precedingCode === 38;
  return matchValue(text, separator + 1, { key, kind, inQuery, keyStart, separator: separatorCode });
}

/**
 * Credentials assigned to a key that names them: `.env` lines, shell exports, YAML, JSON, code
 * literals, URL query parameters and HTTP headers such as `Authorization: Bearer ...`.
 */
export const assignment: SecretRule = {
  id: 'assignment',
  description:
    'Values of keys named like credentials (password, passwd, pwd, secret, token, api_key, access_key, credential, auth, authorization, bearer) after : or =, including Authorization headers and .env lines; AWS secret keys by their key names',
  anchors: [':', '='],
  match: matchAssignment,
  maxLength: MAX_VALUE + MAX_WRAP + 16,
  positives: (fake) => {
    const password = `${fake.chars(ALPHABETS.alnum, 10)}!${fake.chars(ALPHABETS.digits, 2)}`;
    const token = fake.chars(ALPHABETS.hex, 32);
    const awsSecret = fake.chars(ALPHABETS.base64, 40);
    const bearer = fake.chars(ALPHABETS.base64url, 40);
    const basic = fake.base64(24);
    const word = fake.chars(ALPHABETS.letters, 12);
    const lowerWord = fake.chars('abcdefghijklmnopqrstuvwxyz', 12);
    return [
      { text: `DB_PASSWORD=${password}\nDB_HOST=db`, secret: password, kind: 'password' },
      { text: `export TWILIO_AUTH_TOKEN="${token}"`, secret: token, kind: 'token' },
      { text: `{"username":"svc","password":"${password}"}`, secret: password, kind: 'password' },
      { text: `db:\n  password: ${password}\n  port: 5432\n`, secret: password, kind: 'password' },
      { text: `SMTP_PASS=${word}\n`, secret: word, kind: 'password' },
      { text: `smtp:\n  pass: ${lowerWord}\n`, secret: lowerWord, kind: 'password' },
      { text: `aws_secret_access_key = ${awsSecret}\n`, secret: awsSecret, kind: 'aws_secret_key' },
      {
        text: `{"AccessKeyId":"ASIA...","SecretAccessKey":"${awsSecret}"}`,
        secret: awsSecret,
        kind: 'aws_secret_key',
      },
      {
        text: `curl -H "Authorization: Bearer ${bearer}" https://api`,
        secret: bearer,
        kind: 'authorization',
      },
      { text: `Authorization: Basic ${basic}\r\nHost: x`, secret: basic, kind: 'authorization' },
      { text: `GET /cb?code=1&access_token=${token}&state=z`, secret: token, kind: 'token' },
      { text: `client_secret: '${token}',`, secret: token, kind: 'secret' },
      { text: `apiKey := "${token}"`, secret: token, kind: 'api_key' },
      { text: `{\\"password\\":\\"${password}\\"}`, secret: password, kind: 'password' },
      {
        text: `level=info msg="login" user=bob password=${password} ip=10.0.0.1`,
        secret: password,
        kind: 'password',
      },
      { text: `x-api-key: ${token}`, secret: token, kind: 'api_key' },
      { text: `<a href="/cb?code=1&amp;access_token=${token}&amp;state=z">`, secret: token, kind: 'token' },
      {
        text: `DB_PASSWORD="${word} ${lowerWord} ${password}"\nDB_HOST=db`,
        secret: `${word} ${lowerWord} ${password}`,
        kind: 'password',
      },
    ];
  },
  negatives: () => [
    'const password = getPassword();',
    'token: string;',
    'password: password,',
    'if (token == null) return;',
    'const tokens = tokenize(text);',
    '"password": { "type": "string", "minLength": 8 }',
    '"password": "Passwort"',
    '"token": "The token used to authenticate"',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell-style placeholder is the sample
    'password=${DB_PASSWORD}',
    'PASSWORD=<your-password>',
    'api_key: xxxxxxxxxxxxxxxx',
    'secret = os.environ["SECRET"]',
    'auth: true',
    'max_tokens=4096',
    'let token = this.token;',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell-style placeholder is the sample
    'Authorization: Bearer ${TOKEN}',
    'password: "********"',
    'tokenizer: "bert-base-uncased"',
    'a ? token : fallback',
    'password_hint: "the name of your first pet"',
    'token: process.env.UPSTASH_REDIS_REST_TOKEN!,',
    '"js-tiktoken": "^1.0.12",',
    'InvalidToken = "invalid_token",',
    '\t\trefresh_token: refreshToken\n\t}',
    "clientSecret: 'my-idp-secret',",
    'onresumptiontoken: options?.onresumptiontoken',
    'progressToken: ProgressTokenSchema$1',
    'secretsMap: { OPENAI_API_KEY: "sk-..." }',
    'PWD=/home/dev/project\n',
    'GOOGLE_APPLICATION_CREDENTIALS=/home/dev/.config/gcloud/application_default_credentials.json\n',
    '"Env": ["PWD=/app", "PRIVATE_KEY=~/.ssh/id_ed25519.pub"]',
  ],
};
