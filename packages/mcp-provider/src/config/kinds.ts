import type { RawServerEntry } from './formats.js';
import { type McpConfigProblem, createProblem } from './problems.js';

/** Fields that only a server run as a process uses. */
const STDIO_FIELDS = [
  'command',
  'args',
  'cwd',
  'env',
  'inheritEnv',
  'stderrTailBytes',
  'maxMessageBytes',
  'envFile',
] as const;
/** Fields that only a server reached at a URL uses. */
const REMOTE_FIELDS = ['url', 'headers', 'bearerToken'] as const;

/** `{}`, `[]` and `""` carry nothing: config generators write them for every server. */
function isEmpty(value: unknown): boolean {
  if (value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

/**
 * Fields of the other server kind (`env` on a URL server, `headers` on a command), which the
 * validator would drop unseen while the operator thinks they do something; and a `type` that
 * contradicts the fields given (`type: "stdio"` with only a `url`). Empty values are let
 * through: they mean nothing either way. Other tools' own keys (`autoApprove`, `trust`...) are
 * not ours to judge and are not looked at here.
 */
export function otherKindProblems(server: string, entry: RawServerEntry): McpConfigProblem[] {
  const stdio = entry.type === 'stdio';
  if (stdio && entry.command === undefined && entry.url !== undefined) {
    return [
      createProblem(
        server,
        'type',
        '"stdio" is for a server run with "command", but this one has a "url": set type to "http", "sse" or "websocket", or remove it',
      ),
    ];
  }
  if (!stdio && entry.url === undefined && entry.command !== undefined) {
    return [
      createProblem(
        server,
        'type',
        `${JSON.stringify(entry.type)} is for a server reached at a "url", but this one has a "command": set type to "stdio", or remove it`,
      ),
    ];
  }
  const problems: McpConfigProblem[] = [];
  for (const field of stdio ? REMOTE_FIELDS : STDIO_FIELDS) {
    const value = entry[field];
    if (value === undefined || isEmpty(value)) continue;
    const what = stdio
      ? 'belongs to remote servers (reached at a "url"), but this server is run as a process ("command"), where it would do nothing: remove it (a process takes its settings in "env" or "args")'
      : `belongs to stdio servers (run with "command"), but this server is reached at a URL, where it would do nothing: remove it${field === 'env' ? ' (to send a value to a remote server, use "headers")' : ''}`;
    problems.push(createProblem(server, field, what));
  }
  return problems;
}
