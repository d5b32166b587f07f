import { type ApprovalChannel, type ApprovalDecision, ToolError } from '@toolplane/core';

/** Options of {@link createHttpApprovalChannel}. */
export interface HttpApprovalOptions {
  /** Endpoint that receives the request as JSON and answers `{ "decision": "allow-once" | "allow-always" | "deny" }`. */
  readonly url: string | URL;
  /** Extra headers (for example an authorization header). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Fetch implementation; the global `fetch` by default. */
  readonly fetch?: typeof fetch;
}

const DECISIONS: ReadonlySet<string> = new Set(['allow-once', 'allow-always', 'deny']);

/**
 * An approval channel that POSTs each request to an HTTP endpoint and waits for the answer
 * (a person approving in a web UI, a chat bot...). The request is aborted on timeout; any
 * error or unexpected answer counts as no approval.
 *
 * @example
 * const channel = createHttpApprovalChannel({ url: 'http://127.0.0.1:8787/approvals' });
 */
export function createHttpApprovalChannel(options: HttpApprovalOptions): ApprovalChannel {
  const doFetch = options.fetch ?? fetch;
  return {
    async request(request, signal): Promise<ApprovalDecision> {
      const response = await doFetch(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
        body: JSON.stringify(request),
        signal,
      });
      const text = await response.text();
      if (!response.ok) {
        throw new ToolError(
          'APPROVAL_REQUIRED',
          `approval endpoint answered HTTP ${response.status}; check ${String(options.url)}`,
        );
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new ToolError(
          'APPROVAL_REQUIRED',
          'approval endpoint did not answer JSON; it must answer {"decision":"allow-once"|"allow-always"|"deny"}',
        );
      }
      const decision = (body as { decision?: unknown } | null)?.decision;
      if (typeof decision !== 'string' || !DECISIONS.has(decision)) {
        throw new ToolError(
          'APPROVAL_REQUIRED',
          `approval endpoint answered decision ${JSON.stringify(decision)}; expected allow-once, allow-always or deny`,
        );
      }
      return decision as ApprovalDecision;
    },
  };
}
