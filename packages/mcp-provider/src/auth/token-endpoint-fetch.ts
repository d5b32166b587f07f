import { ToolError } from '@toolplane/core';

/** A fetch that checks token endpoint answers, and the last failure it saw. */
export interface TokenEndpointFetch {
  readonly fetch: typeof fetch;
  /**
   * Why the last token request failed, when no login would cure it (the endpoint did not
   * answer, answered 5xx, or answered something that is not a token response), then forgets
   * it; undefined when it did not fail so.
   */
  takeFailure(): ToolError | undefined;
}

const grantOf = (init: RequestInit | undefined): string | undefined =>
  init?.method === 'POST' && init.body instanceof URLSearchParams
    ? (init.body.get('grant_type') ?? undefined)
    : undefined;

const where = (input: string | URL | Request): string => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  return `${url.origin}${url.pathname}`;
};

const unavailable = (endpoint: string, grant: string, why: string, cause?: unknown): ToolError =>
  new ToolError(
    'PROVIDER_UNAVAILABLE',
    `the authorization server's token endpoint ${endpoint} ${why} (grant ${grant}): try again later, or ask its operator`,
    { details: { url: endpoint, grant }, retryable: true, ...(cause === undefined ? {} : { cause }) },
  );

/** A short, printable start of a body, for an error message. */
const preview = (text: string): string => JSON.stringify(text.replace(/\s+/g, ' ').slice(0, 60));

/**
 * Wraps `base` so that a token request (a POST whose form has `grant_type`) that gets no
 * answer, a 5xx, or a body which is not a token response fails with `PROVIDER_UNAVAILABLE`
 * naming the endpoint (a timeout stays `TIMEOUT`), instead of a bare JSON parse error. The SDK
 * treats any refresh failure that is not an OAuth error as "authorize again";
 * {@link TokenEndpointFetch.takeFailure} lets a caller report the real cause instead.
 */
export function tokenEndpointFetch(base: typeof fetch): TokenEndpointFetch {
  let failure: ToolError | undefined;
  const checked: typeof fetch = async (input, init) => {
    const grant = grantOf(init);
    if (grant === undefined) return base(input, init);
    failure = undefined;
    const endpoint = where(input);
    let response: Response;
    try {
      response = await base(input, init);
    } catch (error) {
      failure = ToolError.isInstance(error)
        ? error
        : unavailable(
            endpoint,
            grant,
            `could not be reached: ${(error as Error)?.message ?? String(error)}`,
            error,
          );
      throw failure;
    }
    // a 4xx is an OAuth error (`invalid_grant`...) that the SDK reads and a login may cure
    if (response.status < 500 && !response.ok) return response;
    const text = await response.text();
    if (!response.ok) {
      failure = unavailable(endpoint, grant, `answered ${response.status} (${preview(text)})`);
      throw failure;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const token = body as { access_token?: unknown; token_type?: unknown } | undefined;
    if (typeof token !== 'object' || token === null || typeof token.access_token !== 'string') {
      const type = response.headers.get('content-type') ?? 'no content-type';
      failure = unavailable(
        endpoint,
        grant,
        `answered ${response.status} with a body that is not a token response (${type}, starting ${preview(text)})`,
      );
      throw failure;
    }
    return new Response(text, { status: response.status, headers: response.headers });
  };
  return {
    fetch: checked,
    takeFailure: () => {
      const taken = failure;
      failure = undefined;
      return taken;
    },
  };
}
