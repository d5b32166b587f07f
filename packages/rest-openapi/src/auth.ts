import { ToolError } from '@toolplane/core';
import { authHeaderName } from './check-auth.js';
import type { RestAuthConfig } from './config.js';
import { encodeStrict } from './encoding.js';
import type { OAuthTokenCache } from './oauth-tokens.js';
import { expandEnv } from './template.js';
import { normalizeOrigins, refuseForeignTokenUrl } from './token-origins.js';

/** What credentials add to a request. */
export interface AppliedAuth {
  readonly headers: Record<string, string>;
  readonly query: string[];
  readonly cookies: string[];
  /** Secret values used, for `secretValues()`. */
  readonly secrets: string[];
  /** OAuth2 tokens sent, to forget when the API refuses them (401). */
  readonly obtainedTokens: string[];
}

function hasUnsafeChars(text: string): boolean {
  return /[\r\n\0]/.test(text);
}

/** Resolves `${ENV}` in credentials and turns them into headers, query pairs and cookies. */
export async function applyAuth(
  entries: readonly RestAuthConfig[],
  env: Readonly<Record<string, string | undefined>>,
  tokens: OAuthTokenCache,
  signal: AbortSignal,
  waiting: { tokenEndpoint?: string; readonly apiOrigin?: string } = {},
): Promise<AppliedAuth> {
  const applied: AppliedAuth = { headers: {}, query: [], cookies: [], secrets: [], obtainedTokens: [] };
  const headerSetBy = new Map<string, number>();
  for (const [index, entry] of entries.entries()) {
    let values: string[];
    try {
      values = resolveValues(entry, env);
    } catch (error) {
      if (entry.optional && ToolError.isInstance(error) && error.code === 'CONFIG_INVALID') continue;
      throw error;
    }
    for (const value of values) {
      if (hasUnsafeChars(value)) {
        throw new ToolError(
          'CONFIG_INVALID',
          `a credential of type ${entry.type} contains CR, LF or NUL; fix its value`,
        );
      }
    }
    const header = authHeaderName(entry);
    const earlier = header === undefined ? undefined : headerSetBy.get(header);
    if (earlier !== undefined) {
      // optional entries meant to stand in for each other, both set: the last would win silently
      throw new ToolError(
        'CONFIG_INVALID',
        `auth[${earlier}] and auth[${index}] both set the ${header} header, which carries one credential; unset the variables of one of them`,
      );
    }
    if (header !== undefined) headerSetBy.set(header, index);
    switch (entry.type) {
      case 'bearer': {
        const token = values[0] as string;
        applied.headers.authorization = `Bearer ${token}`;
        applied.secrets.push(token);
        break;
      }
      case 'basic': {
        const [username, password] = values as [string, string];
        // RFC 7617: the first colon ends the user name, so the server would read another user
        if (username.includes(':'))
          throw new ToolError(
            'CONFIG_INVALID',
            `basic auth username ${entry.username.includes('${') ? `from ${entry.username} ` : ''}holds a colon, which ends a user name in HTTP basic credentials (the server would read another user and password); use a user name without one`,
          );
        const encoded = Buffer.from(`${username}:${password}`).toString('base64');
        applied.headers.authorization = `Basic ${encoded}`;
        applied.secrets.push(password, encoded);
        break;
      }
      case 'apiKey': {
        const value = values[0] as string;
        if (entry.in === 'header') applied.headers[entry.name.toLowerCase()] = value;
        else if (entry.in === 'query')
          applied.query.push(`${encodeStrict(entry.name)}=${encodeStrict(value)}`);
        else applied.cookies.push(`${encodeStrict(entry.name)}=${encodeStrict(value)}`);
        applied.secrets.push(value);
        break;
      }
      case 'oauth2-client-credentials': {
        const [tokenUrl, clientId, clientSecret] = values as [string, string, string];
        if (entry.allowedTokenOrigins !== undefined && waiting.apiOrigin !== undefined) {
          // a tokenUrl the API's document chose: the secret goes to the API's own site only
          const allowed = normalizeOrigins(entry.allowedTokenOrigins, 'allowedTokenOrigins');
          refuseForeignTokenUrl(tokenUrl, waiting.apiOrigin, 'origins' in allowed ? allowed.origins : []);
        }
        // named if the call's time runs out while the token endpoint keeps it waiting
        waiting.tokenEndpoint = endpointName(tokenUrl);
        const token = await tokens.token(
          {
            tokenUrl,
            clientId,
            clientSecret,
            ...(entry.scopes ? { scopes: entry.scopes } : {}),
            ...(entry.audience ? { audience: entry.audience } : {}),
          },
          signal,
        );
        waiting.tokenEndpoint = undefined;
        applied.headers.authorization = `Bearer ${token}`;
        applied.secrets.push(clientSecret, token);
        applied.obtainedTokens.push(token);
        break;
      }
    }
  }
  return applied;
}

/** Origin and path of a token URL (its query may hold a key), or how to name one that is no URL. */
function endpointName(tokenUrl: string): string {
  try {
    const url = new URL(tokenUrl);
    return `${url.origin}${url.pathname}`;
  } catch {
    return 'of this tool';
  }
}

function resolveValues(entry: RestAuthConfig, env: Readonly<Record<string, string | undefined>>): string[] {
  const where = `auth (${entry.type})`;
  switch (entry.type) {
    case 'bearer':
      return [expandEnv(entry.token, env, where)];
    case 'basic':
      return [expandEnv(entry.username, env, where), expandEnv(entry.password, env, where)];
    case 'apiKey':
      return [expandEnv(entry.value, env, where)];
    case 'oauth2-client-credentials':
      return [
        expandEnv(entry.tokenUrl, env, where),
        expandEnv(entry.clientId, env, where),
        expandEnv(entry.clientSecret, env, where),
      ];
  }
}

/** Every literal or environment value the credentials of a tool resolve to (for the scrubber). */
export function authSecrets(
  entries: readonly RestAuthConfig[],
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const out: string[] = [];
  for (const entry of entries) {
    try {
      const values = resolveValues(entry, env);
      if (entry.type === 'basic') {
        out.push(values[1] as string, Buffer.from(`${values[0]}:${values[1]}`).toString('base64'));
      } else if (entry.type === 'oauth2-client-credentials') out.push(values[2] as string);
      else out.push(values[0] as string);
    } catch {
      // a missing variable is reported when the tool is called
    }
  }
  return out.filter((value) => value.length > 0);
}
