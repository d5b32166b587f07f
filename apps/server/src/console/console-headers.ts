/**
 * The Content-Security-Policy of every console file: scripts, styles and requests from the
 * server's own origin only, no inline script or style, no frames, no plugins, forms post
 * nowhere. The page navigates to an authorization server with `location.assign`, which a CSP
 * does not restrict.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers of every console answer: the CSP and the usual hardening. */
export function consoleHeaders(contentType: string): Record<string, string> {
  return {
    'content-type': contentType,
    'content-security-policy': CONSOLE_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cache-control': 'no-cache',
  };
}
