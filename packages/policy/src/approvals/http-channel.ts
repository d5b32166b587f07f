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
/** The most of an answer read: `{"decision":"allow-once"}` needs 30 bytes. */
const MAX_ANSWER_BYTES = 65_536;

/**
 * The answer's body as text, at most {@link MAX_ANSWER_BYTES}: an endpoint that sends more (or
 * never stops) is cut off, not buffered until the approval times out.
 */
async function readAnswer(response: Response): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_ANSWER_BYTES)
        throw new ToolError(
          'APPROVAL_REQUIRED',
          `approval endpoint answered more than 64 KB; it must answer {"decision":"allow-once"|"allow-always"|"deny"}`,
        );
      chunks.push(value);
    }
  } finally {
    // Stops the download (and frees the connection) when the loop ends early.
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * An approval channel that POSTs each request to an HTTP endpoint and waits for the answer
 * (a person approving in a web UI, a chat bot...). The request is aborted on timeout; any
 * error or unexpected answer counts as no approval. At most 64 KB of an answer is read.
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
      const text = await readAnswer(response);
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
