import { ToolError } from '@toolplane/core';
import type { RestAuthConfig, RestToolConfig } from './config.js';
import { own } from './records.js';
import { envNamesIn } from './template.js';
import { refuseForeignTokenUrl } from './token-origins.js';
import { baseUrlAdvice, baseUrlVariable } from './tool-url.js';

/** One tool as the warnings see it. */
export interface WarnedTool {
  readonly name: string;
  readonly config: RestToolConfig;
  readonly auth: readonly RestAuthConfig[];
}

type Env = Readonly<Record<string, string | undefined>>;

/** `a, b, c and 4 more` */
function named(list: readonly string[]): string {
  const shown = list.slice(0, 3).join(', ');
  return list.length > 3 ? `${shown} and ${list.length - 3} more` : shown;
}

/** `${VAR}` filled where every variable is set, else undefined. */
function filled(text: string, env: Env): string | undefined {
  let missing = false;
  const out = text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_whole, name: string) => {
    const value = own(env, name);
    if (value === undefined) missing = true;
    return value ?? '';
  });
  return missing ? undefined : out;
}

/**
 * What keeps calls from working as configured now, read from the environment at each call: a
 * url's `${VAR}` that is not set (saying how to set a base URL), and a document's OAuth2 tokenUrl
 * that calls refuse to send the client secret to. One line per variable or token origin.
 */
export function configurationWarnings(tools: Iterable<WarnedTool>, env: Env): string[] {
  const unset = new Map<string, { tools: string[]; url: string; base: boolean }>();
  const refused = new Map<string, { tools: string[]; message: string }>();
  for (const { name, config, auth } of tools) {
    for (const variable of new Set(envNamesIn(config.url))) {
      if (own(env, variable) !== undefined) continue;
      const seen = unset.get(variable);
      if (seen) seen.tools.push(name);
      else
        unset.set(variable, {
          tools: [name],
          url: config.url,
          base: baseUrlVariable(config.url) === variable,
        });
    }
    const url = filled(config.url, env);
    for (const entry of auth) {
      if (entry.type !== 'oauth2-client-credentials' || entry.allowedTokenOrigins === undefined) continue;
      const tokenUrl = filled(entry.tokenUrl, env);
      let origin: string;
      try {
        if (url === undefined || tokenUrl === undefined) continue;
        origin = new URL(url).origin;
        refuseForeignTokenUrl(tokenUrl, origin, entry.allowedTokenOrigins);
      } catch (error) {
        if (!ToolError.isInstance(error)) continue;
        const key = String(error.details?.tokenOrigin);
        const seen = refused.get(key);
        if (seen) seen.tools.push(name);
        else refused.set(key, { tools: [name], message: error.message });
      }
    }
  }
  const lines: string[] = [];
  for (const [variable, { tools: list, url, base }] of unset)
    lines.push(
      base
        ? `${variable} is not set, and the url of ${list.length === 1 ? 'tool' : 'tools'} ${named(list)} starts with it (the API's base URL), so ${list.length === 1 ? 'its calls fail' : 'their calls fail'} CONFIG_INVALID; ${baseUrlAdvice(variable, url)}`
        : `${variable} is not set, and the url of ${list.length === 1 ? 'tool' : 'tools'} ${named(list)} reads it, so ${list.length === 1 ? 'its calls fail' : 'their calls fail'} CONFIG_INVALID; set it in the environment or the provider's env option`,
    );
  for (const { tools: list, message } of refused.values())
    lines.push(`${list.length === 1 ? 'tool' : 'tools'} ${named(list)}: calls are DENIED: ${message}`);
  return lines;
}
