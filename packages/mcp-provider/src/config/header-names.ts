import type { RawServerEntry } from './formats.js';
import { type McpConfigProblem, createProblem } from './problems.js';

/**
 * Headers a request would carry twice: two names that differ only in case (HTTP names ignore
 * case, and both values would be sent joined with ", "), or `bearerToken` beside a header
 * `Authorization` in any case (one would replace or join the other). Names only, never values.
 */
export function repeatedHeaderProblems(server: string, entry: RawServerEntry): McpConfigProblem[] {
  const headers = entry.headers;
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) return [];
  const problems: McpConfigProblem[] = [];
  const firstByLowerCase = new Map<string, string>();
  for (const name of Object.keys(headers)) {
    const first = firstByLowerCase.get(name.toLowerCase());
    if (first === undefined) {
      firstByLowerCase.set(name.toLowerCase(), name);
      continue;
    }
    problems.push(
      createProblem(
        server,
        `headers.${name}`,
        `repeats headers.${first} (header names ignore case), and both values would be sent joined: keep one`,
      ),
    );
  }
  const authorization = firstByLowerCase.get('authorization');
  if (entry.bearerToken !== undefined && authorization !== undefined) {
    problems.push(
      createProblem(
        server,
        'bearerToken',
        `and headers.${authorization} both set the Authorization header: keep one`,
      ),
    );
  }
  return problems;
}

/** Headers the MCP transports and the HTTP client set themselves, by lower-case name, with what they carry. */
const TRANSPORT_HEADERS: ReadonlyMap<string, string> = new Map([
  ['mcp-session-id', 'the session id the server assigns at initialize'],
  ['mcp-protocol-version', 'the protocol version negotiated at initialize (a second value is joined to it)'],
  ['accept', 'the response types the transport reads (JSON and an SSE stream)'],
  ['content-type', 'the type of the JSON-RPC body'],
  ['last-event-id', 'where a resumed SSE stream starts'],
  ['content-length', 'the length of each body (a fixed one fails every request with "fetch failed")'],
  ['transfer-encoding', 'how each body is framed (a value here fails every request with "fetch failed")'],
  [
    'connection',
    'how the HTTP client keeps its connection (most values fail every request with "fetch failed")',
  ],
  [
    'keep-alive',
    'how long the HTTP client keeps its connection (a value here fails every request with "fetch failed")',
  ],
  [
    'upgrade',
    'the protocol the connection switches to (a value here fails every request with "fetch failed")',
  ],
  [
    'expect',
    'whether a body waits for "100 Continue" (a value here fails every request with "fetch failed")',
  ],
]);

/**
 * User headers that would replace or join one the transport sets (`Mcp-Session-Id`,
 * `Mcp-Protocol-Version`, `Accept`, `Content-Type`, `Last-Event-ID`, the body framing
 * `Content-Length`, `Transfer-Encoding`, and the connection headers `Connection`, `Keep-Alive`,
 * `Upgrade`, `Expect`), in any case: a session id or protocol version given
 * here broke the session at its first request.
 */
export function transportHeaderProblems(server: string, entry: RawServerEntry): McpConfigProblem[] {
  const headers = entry.headers;
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) return [];
  const problems: McpConfigProblem[] = [];
  for (const name of Object.keys(headers)) {
    const carries = TRANSPORT_HEADERS.get(name.toLowerCase());
    if (carries === undefined) continue;
    problems.push(
      createProblem(
        server,
        `headers.${name}`,
        `is set by the MCP transport (${carries}), and a value here would replace it: remove it`,
      ),
    );
  }
  return problems;
}
