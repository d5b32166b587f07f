import { usageError } from '../output/cli-error.js';
import {
  DEFAULT_TOKEN_ENV,
  type HttpAccess,
  MIN_TOKEN_LENGTH,
  generateToken,
  normalizeOrigin,
} from './http-access.js';

/** The HTTP gateway's access settings, where its token came from, and whether it was made now. */
export interface HttpAccessSettings {
  readonly access: HttpAccess;
  /** The variable named (`TOOLPLANE_GATEWAY_TOKEN` or `--token-env`'s), for messages. */
  readonly source: string;
  /** No token was given: one was made for this run (and is printed at start). */
  readonly generated: boolean;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function origin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usageError(
      `--allow-origin takes an origin such as https://app.example, got ${JSON.stringify(value.slice(0, 200))}`,
      'give the scheme, host and port a browser sends in Origin, without a path',
    );
  }
  if (!/^https?:$/.test(url.protocol) || url.origin !== normalizeOrigin(value))
    throw usageError(
      `--allow-origin takes an origin (scheme://host[:port]), got ${JSON.stringify(value.slice(0, 200))}`,
      `write --allow-origin ${url.origin === 'null' ? 'https://HOST' : url.origin}`,
    );
  return url.origin;
}

/**
 * The token and allowed origins of `serve mcp --http`: the token from `--token-env VAR` (which
 * must be set), else from `TOOLPLANE_GATEWAY_TOKEN` when set, else made for this run. A token is
 * never taken on the command line, where other users of the machine can read it.
 */
export function httpAccess(
  options: { tokenEnv?: string; allowOrigin?: string[] },
  env: NodeJS.ProcessEnv,
): HttpAccessSettings {
  const name = options.tokenEnv ?? DEFAULT_TOKEN_ENV;
  if (!ENV_NAME.test(name))
    throw usageError(
      `--token-env takes the name of an environment variable, got ${JSON.stringify(name.slice(0, 100))}`,
      'for example --token-env MY_GATEWAY_TOKEN (the token itself never goes on the command line)',
    );
  const allowedOrigins = (options.allowOrigin ?? []).map(origin);
  const given = env[name];
  if (given === undefined || given === '') {
    if (options.tokenEnv !== undefined)
      throw usageError(
        `--token-env ${name}: the variable is not set`,
        `set ${name} to the token clients will send (at least ${MIN_TOKEN_LENGTH} characters), or leave --token-env out to have one made`,
      );
    return { access: { token: generateToken(), allowedOrigins }, source: name, generated: true };
  }
  if (given.length < MIN_TOKEN_LENGTH || /\s/.test(given))
    throw usageError(
      `the token in ${name} is too short or has spaces: it needs at least ${MIN_TOKEN_LENGTH} characters and no whitespace`,
      `set ${name} to a longer token (for example: openssl rand -base64 32), or unset it to have one made`,
    );
  return { access: { token: given, allowedOrigins }, source: name, generated: false };
}
