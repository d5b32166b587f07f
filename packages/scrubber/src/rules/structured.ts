import { ALPHABETS, isBase64Code } from '../alphabets.js';
import { isPlaceholder, looksRandom } from '../placeholder.js';
import type { RuleMatch, SecretRule } from '../types.js';
import { bareContexts, inContexts } from './contexts.js';

const PEM_HEADER = /-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----/y;
const PEM_FOOTER_END = /-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----/y;
const PEM_MAX_BODY = 16_384;

/** The regexes of the PEM matcher (checked for linear time by a test). */
export const PEM_PATTERNS: readonly RegExp[] = [PEM_HEADER, PEM_FOOTER_END];

/**
 * End of the body of an unterminated PEM block: whole lines of base64 (or RFC 1421 header
 * fields), separated by real or JSON-escaped newlines. Stops before the first other line.
 */
function unterminatedBodyEnd(text: string, from: number, limit: number): number {
  let end = from;
  let position = from;
  while (position < limit) {
    let cursor = position;
    while (cursor < limit && (text.charCodeAt(cursor) === 32 || text.charCodeAt(cursor) === 9)) cursor++;
    const lineStart = cursor;
    while (cursor < limit && isBase64Code(text.charCodeAt(cursor))) cursor++;
    if (text.startsWith('Proc-Type:', lineStart) || text.startsWith('DEK-Info:', lineStart)) {
      while (cursor < limit && text.charCodeAt(cursor) !== 10 && text.charCodeAt(cursor) !== 92) cursor++;
    }
    const hasContent = cursor > lineStart;
    if (cursor < limit && text.charCodeAt(cursor) === 13) cursor++;
    if (cursor >= limit) return hasContent ? cursor : end;
    if (text.charCodeAt(cursor) === 10) cursor++;
    else if (text.charCodeAt(cursor) === 92 && text.charCodeAt(cursor + 1) === 110) cursor += 2;
    else return hasContent && cursor - lineStart >= 16 ? cursor : end;
    if (hasContent) end = cursor;
    else if (position !== from) return end;
    position = cursor;
  }
  return end;
}

/**
 * The footer of the block whose body starts at `from`, or -1. A PEM body has no `-----`, so
 * the first `-----` after the header is the footer or the end of the block: a run of headers
 * without footers is searched once, not once per header. Searched in a bounded slice (a view).
 */
function findFooter(text: string, from: number, limit: number): number {
  const relative = text.slice(from, limit).indexOf('-----');
  if (relative === -1) return -1;
  const dashes = from + relative;
  return text.startsWith('-----END ', dashes) ? dashes : -1;
}

/** Redacts a PEM private key block; an unterminated block (truncated output) is redacted to where its body ends. */
function matchPem(text: string, index: number): RuleMatch | undefined {
  PEM_HEADER.lastIndex = index;
  if (!PEM_HEADER.test(text)) return undefined;
  const bodyStart = PEM_HEADER.lastIndex;
  const limit = Math.min(text.length, bodyStart + PEM_MAX_BODY);
  const footer = findFooter(text, bodyStart, limit);
  if (footer !== -1) {
    PEM_FOOTER_END.lastIndex = footer;
    if (PEM_FOOTER_END.test(text)) return { start: index, end: PEM_FOOTER_END.lastIndex };
  }
  const end = unterminatedBodyEnd(text, bodyStart, limit);
  return end - bodyStart >= 32 ? { start: index, end } : undefined;
}

/** PEM private keys (RSA, EC, DSA, OpenSSH, PKCS#8, encrypted, PGP), also inside JSON strings (GCP service accounts). */
export const privateKey: SecretRule = {
  id: 'private_key',
  description:
    'PEM private key blocks (RSA, EC, OPENSSH, ENCRYPTED, PGP), also JSON-escaped as in GCP service-account files',
  anchors: ['-----BEGIN '],
  match: matchPem,
  maxLength: PEM_MAX_BODY + 120,
  positives: (fake) => {
    const lines = Array.from({ length: 12 }, () => fake.chars(ALPHABETS.base64, 64));
    const rsa = `-----BEGIN RSA PRIVATE KEY-----\n${lines.join('\n')}\n-----END RSA PRIVATE KEY-----`;
    const pkcs8 = `-----BEGIN PRIVATE KEY-----\\n${lines.join('\\n')}\\n-----END PRIVATE KEY-----\\n`;
    const openssh = `-----BEGIN OPENSSH PRIVATE KEY-----\r\n${lines.slice(0, 6).join('\r\n')}\r\n-----END OPENSSH PRIVATE KEY-----`;
    const truncated = `-----BEGIN EC PRIVATE KEY-----\n${lines.slice(0, 3).join('\n')}`;
    return [
      { text: `$ cat id_rsa\n${rsa}\n$ echo done`, secret: rsa },
      {
        text: `{"type":"service_account","project_id":"acme","private_key_id":"${fake.chars(ALPHABETS.hex, 40)}","private_key":"${pkcs8.slice(0, -2)}","client_email":"x@acme.iam.gserviceaccount.com"}`,
        secret: pkcs8.slice(0, -2),
      },
      { text: `key: |\n  ${openssh}\n`, secret: openssh },
      { text: `output was cut:\n${truncated}`, secret: truncated },
    ];
  },
  negatives: () => [
    '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ\n-----END CERTIFICATE-----',
    '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----',
    'if (line.startsWith("-----BEGIN PRIVATE KEY-----")) parse();',
  ],
};

/** JSON Web Tokens (signed). */
export const jwt: SecretRule = {
  id: 'jwt',
  description: 'JSON Web Tokens: eyJ<header>.eyJ<payload>.<signature>',
  anchors: ['eyJ'],
  pattern:
    /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{16,1024}(?![A-Za-z0-9_-])/y,
  maxLength: 13_400,
  positives: (fake) => {
    const header = fake.base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    const payload = fake.base64url(
      JSON.stringify({ sub: fake.chars(ALPHABETS.digits, 10), iat: 1_700_000_000 }),
    );
    const token = `${header}.${payload}.${fake.chars(ALPHABETS.base64url, 43)}`;
    return [...inContexts(token, 'id_token'), ...bareContexts(token)];
  },
  negatives: () => ['eyJhbGciOiJIUzI1NiJ9', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.', 'keyJson = {}'],
};

/** Passwords in URLs: `postgres://user:pass@host`, `redis://:pass@host`, `https://user:pass@host`. */
export const urlPassword: SecretRule = {
  id: 'url_password',
  description:
    'Passwords in URL userinfo (database URLs such as postgres://user:pass@host, redis, amqp, mongodb, https)',
  anchors: ['://'],
  pattern: /:\/\/[^\s:@/?#"'<>`\\]{0,256}:([^\s@/?#"'`\\]{1,256})@/y,
  validate: (secret) => !isPlaceholder(secret) && secret.length >= 3,
  maxLength: 520,
  positives: (fake) => {
    const pass = fake.chars(ALPHABETS.alnum, 18);
    const weird = `${fake.chars(ALPHABETS.alnum, 8)}%40${fake.chars(ALPHABETS.alnum, 6)}!`;
    return [
      { text: `DATABASE_URL=postgres://app:${pass}@db.internal:5432/app`, secret: pass },
      { text: `{"url":"mongodb+srv://admin:${weird}@cluster0.mongodb.net/test"}`, secret: weird },
      { text: `redis://:${pass}@cache:6379/0`, secret: pass },
      { text: `connecting to amqp://guest:${pass}@rabbit:5672/ ...`, secret: pass },
    ];
  },
  negatives: () => [
    'postgres://user:password@localhost:5432/db',
    'postgres://user@localhost/db',
    'https://example.com:8080/path',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell-style placeholder is the sample
    'mysql://root:${DB_PASSWORD}@db/app',
    'postgres://<user>:<password>@host/db',
  ],
};

/**
 * A token given as the whole user name of an https URL (`https://TOKEN@github.com/o/r.git`, as
 * GitHub and GitLab accept): only a user name that looks random and is 20+ characters long.
 */
export const urlToken: SecretRule = {
  id: 'url_token',
  description: 'Tokens given as the whole user name of a URL (https://TOKEN@github.com/...)',
  anchors: ['://'],
  pattern: /:\/\/([A-Za-z0-9_-]{20,256})@/y,
  validate: (secret) => looksRandom(secret) && !isPlaceholder(secret),
  maxLength: 264,
  positives: (fake) => {
    const token = fake.chars(ALPHABETS.alnum, 40);
    return [
      { text: `origin\thttps://${token}@github.com/team/app.git (fetch)`, secret: token },
      { text: `{"url":"https://${token}@gitlab.example.com/g/p.git"}`, secret: token },
    ];
  },
  negatives: () => [
    'https://alice@git.example.com/team/app.git',
    'https://deploy-bot-production@ci.example.com',
    'ssh://git@github.com/a/b',
    'https://first.last@example.com',
  ],
};

/** Slack incoming-webhook and workflow URLs. */
export const slackWebhook: SecretRule = {
  id: 'slack_webhook',
  description: 'Slack webhook URLs (hooks.slack.com/services|workflows|triggers/...)',
  anchors: ['://hooks.slack.com/'],
  pattern: /:\/\/hooks\.slack\.com\/((?:services|workflows|triggers)\/[A-Za-z0-9_/-]{20,200})/y,
  validate: (secret) => looksRandom(secret.slice(secret.lastIndexOf('/') + 1)),
  maxLength: 240,
  positives: (fake) => {
    const path = `services/T${fake.chars(ALPHABETS.upperDigits, 10)}/B${fake.chars(ALPHABETS.upperDigits, 10)}/${fake.chars(ALPHABETS.alnum, 24)}`;
    return [{ text: `SLACK_WEBHOOK=https://hooks.slack.com/${path}\n`, secret: path }];
  },
  negatives: () => [
    'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
    'https://hooks.slack.com/',
  ],
};
