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
