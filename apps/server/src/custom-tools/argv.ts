import { ToolError } from '@toolplane/core';

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The parameter names an argv template uses. */
export function placeholdersOf(argv: readonly string[]): string[] {
  const names = new Set<string>();
  for (const part of argv) for (const match of part.matchAll(PLACEHOLDER)) names.add(match[1] as string);
  return [...names];
}

/**
 * The argument vector of one call: each template element becomes exactly one argument. An
 * element that is only `{name}` is left out when the argument is absent (an optional flag).
 */
export function renderArgv(argv: readonly string[], args: Readonly<Record<string, unknown>>): string[] {
  const out: string[] = [];
  for (const part of argv) {
    const whole = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(part);
    if (whole && args[whole[1] as string] === undefined) continue;
    out.push(
      part.replace(PLACEHOLDER, (_, name: string) => (args[name] === undefined ? '' : asText(args[name]))),
    );
  }
  if (out.length === 0 || out[0] === '')
    throw new ToolError(
      'INVALID_ARGUMENTS',
      'the tool has no command to run: its argv starts with an empty element',
    );
  for (const arg of out)
    if (arg.includes('\0'))
      throw new ToolError(
        'INVALID_ARGUMENTS',
        'an argument holds a NUL character, which no command can receive: remove it',
      );
  return out;
}

/** The variable that carries argument `index` to the command. */
export const argvVariable = (index: number): string => `TOOLPLANE_ARGV_${index}`;

/**
 * A command line for the executor's `sh -c` that runs `argv` without the shell reading any of
 * it: each argument travels in an environment variable and is expanded in double quotes, so
 * quotes, `$()`, backticks, `;`, newlines and `--` arrive as plain data.
 */
export function argvCommand(argv: readonly string[]): { command: string; env: Record<string, string> } {
  const env: Record<string, string> = {};
  const words: string[] = [];
  argv.forEach((arg, index) => {
    env[argvVariable(index)] = arg;
    words.push(`"$${argvVariable(index)}"`);
  });
  return { command: `exec ${words.join(' ')}`, env };
}
