import { type CompiledSchema, type Middleware, compileSchema, fail, formatIssues } from '@toolplane/core';
import { thrownMessage } from '../call/thrown.js';

/** Issues listed in an `INVALID_ARGUMENTS` failure's details (the message names five). */
const MAX_ISSUES = 100;

/**
 * Checks arguments against the tool's input schema before anything else runs. A schema that
 * does not compile (or holds more than `maxSchemaNodes` objects and arrays) is reported once
 * through `warn` and the tool runs unvalidated; so is a schema
 * with patterns that core checks only on strings short enough to bound V8's backtracking
 * (lookaround, backreferences: `CompiledSchema.uncheckedPatterns`).
 */
export function validationMiddleware(
  warn: (tool: string, message: string) => void,
  maxSchemaNodes?: number,
): Middleware {
  const compileOptions = maxSchemaNodes === undefined ? {} : { maxSchemaNodes };
  const broken = new WeakSet<object>();
  const seen = new WeakSet<object>();
  return {
    name: 'validation',
    phase: 'validate',
    handle(call, next) {
      const schema = call.tool.spec.inputSchema;
      if (broken.has(schema)) return next(call);
      let compiled: CompiledSchema;
      try {
        compiled = compileSchema(schema, compileOptions);
      } catch (error) {
        broken.add(schema);
        warn(
          call.tool.name,
          `input schema of ${call.tool.name} does not compile, arguments are not validated: ${thrownMessage(error)}`,
        );
        return next(call);
      }
      // a CompiledSchema of another core version may not have the list
      if ((compiled.uncheckedPatterns ?? []).length > 0 && !seen.has(schema)) {
        seen.add(schema);
        warn(call.tool.name, uncheckedNote(call.tool.name, compiled.uncheckedPatterns));
      }
      const outcome = compiled.validate(call.args);
      if (outcome.valid) return next(call);
      return Promise.resolve(
        fail(
          'INVALID_ARGUMENTS',
          `arguments for ${call.tool.name} do not match its input schema: ${formatIssues(outcome)}. Fix them and call again.`,
          {
            details: {
              issues: outcome.issues.slice(0, MAX_ISSUES),
              issueCount: outcome.issueCount ?? outcome.issues.length,
            },
          },
        ),
      );
    },
  };
}

function uncheckedNote(tool: string, patterns: readonly string[]): string {
  const shown = patterns
    .slice(0, 3)
    .map((pattern) => {
      const points = Array.from(pattern);
      return JSON.stringify(points.length > 100 ? `${points.slice(0, 100).join('')}...` : pattern);
    })
    .join(', ');
  const more = patterns.length > 3 ? ` and ${patterns.length - 3} more` : '';
  return `input schema of ${tool} has patterns that need a backtracking regular expression engine (lookaround, backreferences): ${shown}${more}; they are checked only on strings short enough to bound the backtracking (never for a group repeated without bound), a longer string passes to the tool unchecked for them`;
}
