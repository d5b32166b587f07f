import type { McpProviderEvent } from '@toolplane/mcp-provider';
import { terminalLine } from '../output/terminal-text.js';

/** What a stdio MCP server wrote to its stdout that is not JSON-RPC (log lines, a banner). */
export interface StrayOutput {
  /** Lines seen so far (a burst past the MCP provider's one-by-one reports counts in summaries). */
  readonly lines: number;
  /** The first of them, as the MCP provider quotes it (at most 200 characters of the line). */
  readonly first: string;
}

/** How the MCP provider words a line it could not read as JSON-RPC (`stdio/transport.ts`). */
const MALFORMED = 'malformed JSON-RPC message from the server: ';

/**
 * Collects, per server, the `protocol-error` events that quote a line the server wrote to stdout
 * and that is not a JSON-RPC message. Such a server may work (the SDK skips the line), but each
 * line is a message lost, and the operator only sees it when told. Memory: one line per server.
 */
export class StrayOutputLog {
  private readonly servers = new Map<string, { lines: number; first: string }>();

  /** The listener to give the MCP providers (`onEvent`). */
  readonly onEvent = (event: McpProviderEvent): void => {
    if (event.type !== 'protocol-error') return;
    const seen = this.servers.get(event.server);
    if (event.count !== undefined) {
      // a summary of a burst: "N more protocol errors, ... (last: malformed JSON-RPC message ...)"
      if (seen && event.message.includes(`(last: ${MALFORMED}`)) seen.lines += event.count;
      return;
    }
    if (!event.message.startsWith(MALFORMED)) return;
    if (seen) seen.lines++;
    else this.servers.set(event.server, { lines: 1, first: event.message.slice(MALFORMED.length) });
  };

  /** What `server` wrote to stdout besides JSON-RPC, or undefined when nothing. */
  of(server: string): StrayOutput | undefined {
    const seen = this.servers.get(server);
    return seen ? { ...seen } : undefined;
  }
}

/** Characters shown of the first stray line. */
export const STRAY_LINE_CHARS = 120;

/**
 * A line a program wrote, made safe to print on a terminal ({@link terminalLine}: colour
 * sequences dropped, every other control character and the characters that reorder text shown
 * as `\u001b`), cut to `max` characters.
 */
export function printableLine(text: string, max: number = STRAY_LINE_CHARS): string {
  const shown = terminalLine(text);
  return shown.length > max ? `${shown.slice(0, max)}...` : shown;
}

/**
 * The doctor's warning for a server's stray stdout: how many lines, the first (scrubbed by
 * `scrub`, then made printable and cut), and what to do.
 */
export function strayOutputWarning(stray: StrayOutput, scrub: (text: string) => string): string {
  // scrubbed before it is cut: the provider quotes 200 characters, and a credential that starts
  // within the first 120 has at least 80 of them to be recognised by
  const first = printableLine(scrub(stray.first));
  const lines = stray.lines === 1 ? '1 line on stdout that is' : `${stray.lines} lines on stdout that are`;
  return `the server wrote ${lines} not JSON-RPC (first: "${first}"); stdout of a stdio MCP server carries only protocol messages: make it log to stderr`;
}
