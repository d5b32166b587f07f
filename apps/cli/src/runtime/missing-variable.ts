import type { Middleware, ToolResult } from '@toolplane/core';
import type { ConfiguredProvider } from './providers.js';

/** How the REST library words its advice, naming its own option. */
const SET_OR_PASS = "set it or pass it in the provider's env option";
const IN_ENV_OR_OPTION = " in the environment or the provider's env option";

/** What a CLI user does about an unset variable: where to set it and which config key reads it. */
export function missingVariableAdvice(variable: string, configured: ConfiguredProvider): string {
  const keys = [
    ...new Set(
      (configured.variables ?? []).filter((entry) => entry.variable === variable).map((entry) => entry.key),
    ),
  ];
  if (keys.length > 0)
    return `set ${variable} in the environment toolplane runs in (the CLI config reads it at ${keys.join(', ')})`;
  // an OpenAPI scheme's default variable (<PREFIX>_<SCHEME>): the config can name another one
  if (configured.source.startsWith('openapi['))
    return `set ${variable} in the environment toolplane runs in, or name the variable to read in ${configured.source}.credentials of the CLI config`;
  return `set ${variable} in the environment toolplane runs in`;
}

function rewritten(result: ToolResult, configured: ConfiguredProvider): ToolResult {
  if (result.ok) return result;
  const variable = result.error.details?.variable;
  const { message } = result.error;
  if (typeof variable !== 'string' || !message.includes("the provider's env option")) return result;
  const baseUrl = configured.source.startsWith('openapi[') ? ` (or give ${configured.source}.baseUrl)` : '';
  const text = message
    .replace(SET_OR_PASS, missingVariableAdvice(variable, configured))
    .replace(IN_ENV_OR_OPTION, ` in the environment toolplane runs in${baseUrl}`);
  return { ...result, error: { ...result.error, message: text } };
}

/**
 * Rewords a REST or OpenAPI call's "variable not set" error for the CLI: it names the CLI
 * config key that reads the variable, not the library's `env` option, which a CLI user has not got.
 */
export function missingVariableMiddleware(providers: readonly ConfiguredProvider[]): Middleware {
  const byNamespace = new Map(providers.map((configured) => [configured.provider.namespace, configured]));
  return {
    name: 'cli-missing-variable',
    phase: 'transform',
    async handle(call, next) {
      const result = await next(call);
      const configured = byNamespace.get(call.tool.provider.namespace);
      return configured && call.tool.provider.kind === 'rest' ? rewritten(result, configured) : result;
    },
  };
}
