import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';

/** A server's last `WWW-Authenticate: Bearer` challenge, kept so the next login answers it. */
export interface McpAuthChallenge {
  /** `401` (a token is missing or refused) or `403` (`insufficient_scope`: step-up). */
  readonly status: 401 | 403;
  readonly scope?: string;
  readonly resourceMetadataUrl?: string;
  readonly error?: string;
}

/** The Bearer challenge of a 401 or 403, or undefined when the response carries none. */
export function readChallenge(response: Response): McpAuthChallenge | undefined {
  if (response.status !== 401 && response.status !== 403) return undefined;
  if (!/^\s*bearer\b/i.test(response.headers.get('www-authenticate') ?? '')) return undefined;
  const { resourceMetadataUrl, scope, error } = extractWWWAuthenticateParams(response);
  return {
    status: response.status,
    ...(scope ? { scope } : {}),
    ...(resourceMetadataUrl ? { resourceMetadataUrl: resourceMetadataUrl.href } : {}),
    ...(error ? { error } : {}),
  };
}

const words = (scope: string | undefined): string[] => (scope ?? '').split(/\s+/).filter(Boolean);

/** Whether every scope of `needed` is in `granted`. */
export function coversScope(granted: string | undefined, needed: string | undefined): boolean {
  const have = new Set(words(granted));
  return words(needed).every((scope) => have.has(scope));
}

/**
 * The scope a step-up login asks for: what the token had plus what the challenge names, so the
 * new token keeps the operations the old one allowed.
 */
export function stepUpScope(granted: string | undefined, needed: string | undefined): string | undefined {
  const union = [...new Set([...words(granted), ...words(needed)])];
  return union.length > 0 ? union.join(' ') : undefined;
}

/** Whether two challenges say the same (a stored one is not written again). */
export function sameChallenge(a: McpAuthChallenge | undefined, b: McpAuthChallenge | undefined): boolean {
  return (
    a?.status === b?.status &&
    a?.scope === b?.scope &&
    a?.resourceMetadataUrl === b?.resourceMetadataUrl &&
    a?.error === b?.error
  );
}
