import { ToolError } from '@toolplane/core';
import { own } from './records.js';
import { expandEnv } from './template.js';

const LEADING_VARIABLE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}/;

/** The variable a url starts with (`${SHOP_BASE_URL}/pets` -> `SHOP_BASE_URL`): the API's base URL. */
export function baseUrlVariable(url: string): string | undefined {
  return LEADING_VARIABLE.exec(url)?.[1];
}

/** Says how to set the variable a url starts with. */
export function baseUrlAdvice(name: string, url: string): string {
  const rest = (url.slice(name.length + 3).split('?')[0] as string) || '/';
  return `set ${name} to the URL ${JSON.stringify(rest.slice(0, 200))} goes after, such as https://api.example.com, in the environment or the provider's env option`;
}

/**
 * A tool's url with `${VAR}` read from the environment. A url that starts with a variable (an
 * imported document's relative servers, `baseUrl: '${API_BASE}'`) fails `CONFIG_INVALID` saying
 * how to set it when it is unset or no absolute http(s) URL.
 */
export function expandToolUrl(
  url: string,
  env: Readonly<Record<string, string | undefined>>,
  tool: string,
): string {
  const name = baseUrlVariable(url);
  if (name !== undefined) {
    const value = own(env, name);
    if (value === undefined)
      throw new ToolError(
        'CONFIG_INVALID',
        `tool "${tool}": its url starts with \${${name}}, the API's base URL, and ${name} is not set; ${baseUrlAdvice(name, url)}`,
        { details: { variable: name } },
      );
    if (!/^https?:\/\/[^/?#]/i.test(value))
      throw new ToolError(
        'CONFIG_INVALID',
        `tool "${tool}": its url starts with \${${name}}, which is ${JSON.stringify(value.slice(0, 200))}, not an absolute http(s) URL; ${baseUrlAdvice(name, url)}`,
        { details: { variable: name } },
      );
  }
  return expandEnv(url, env, `tool "${tool}" url`);
}
