import { closestKey } from '../config/closest-key.js';
import { CliError, EXIT_CODES } from '../output/cli-error.js';

/**
 * The error for a tool name nothing registered: `did you mean read?` for a misspelling
 * (`raed`), names that contain it for a part of one (`echo` -> `everything__echo`).
 */
export function unknownToolError(name: string, names: readonly string[]): CliError {
  const closest = closestKey(name, names);
  const containing = names.filter((known) => known.includes(name) || name.includes(known));
  const suggestions = [...new Set([...(closest ? [closest] : []), ...containing])].slice(0, 5);
  return new CliError(`no tool named ${name} is configured`, {
    exitCode: EXIT_CODES.usage,
    code: 'TOOL_NOT_FOUND',
    hint:
      suggestions.length > 0
        ? `did you mean ${suggestions.join(', ')}?`
        : 'run `toolplane tools list` to see the names',
  });
}
