import { type CompiledSchema, type Middleware, compileSchema, fail, formatIssues } from '@toolplane/core';
import { thrownMessage } from '../thrown.js';

/**
 * Checks arguments against the tool's input schema before anything else runs. A schema that
 * does not compile is reported once through `onBrokenSchema` and the tool runs unvalidated.
 */
export function validationMiddleware(onBrokenSchema: (tool: string, message: string) => void): Middleware {
  const broken = new WeakSet<object>();
  return {
    name: 'validation',
    phase: 'validate',
    handle(call, next) {
      const schema = call.tool.spec.inputSchema;
      if (broken.has(schema)) return next(call);
      let compiled: CompiledSchema;
      try {
        compiled = compileSchema(schema);
      } catch (error) {
        broken.add(schema);
        onBrokenSchema(call.tool.name, thrownMessage(error));
        return next(call);
      }
      const outcome = compiled.validate(call.args);
      if (outcome.valid) return next(call);
      return Promise.resolve(
        fail(
          'INVALID_ARGUMENTS',
          `arguments for ${call.tool.name} do not match its input schema: ${formatIssues(outcome.issues)}. Fix them and call again.`,
          { details: { issues: outcome.issues } },
        ),
      );
    },
  };
}
