import { ToolError } from '@toolplane/core';
import { hasStrayBrace } from './path.js';

/** A tool URL split into the part arguments can never touch (origin) and the path/query template. */
export interface SplitUrl {
  /** `scheme://host[:port]` */
  readonly origin: string;
  readonly host: string;
  readonly protocol: 'http:' | 'https:';
  /** Path template with `{name}` placeholders, starting with `/`. */
  readonly pathTemplate: string;
  /** Fixed query of the configured URL, without `?` (may be empty). */
  readonly staticQuery: string;
}

// the path must start with "/": with `([^?#]*)` a host could give characters to the path and try
// again at each length, quadratic in a long host before a fragment
const URL_PARTS = /^(https?):\/\/([^/?#]+)(\/[^?#]*)?(?:\?([^#]*))?$/i;

/**
 * Splits an (environment-expanded) tool URL. The origin is parsed and checked once, so the host
 * comes from configuration only; arguments only ever fill the path template.
 */
export function splitToolUrl(url: string, tool: string): SplitUrl {
  const match = URL_PARTS.exec(url.trim());
  if (!match) {
    throw new ToolError(
      'CONFIG_INVALID',
      `tool "${tool}": url must be an absolute http(s) URL without a fragment, like https://api.example.com/v1/items/{id}; got ${JSON.stringify(url)}`,
    );
  }
  const authority = match[2] as string;
  if (authority.includes('@') || authority.includes('{')) {
    throw new ToolError(
      'CONFIG_INVALID',
      `tool "${tool}": the host part of the url must be a plain host[:port] (no user info, no placeholders)`,
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(`${match[1]}://${authority}`);
  } catch (error) {
    throw new ToolError(
      'CONFIG_INVALID',
      `tool "${tool}": url host ${JSON.stringify(authority)} is not valid`,
      {
        cause: error,
      },
    );
  }
  const pathTemplate = match[3] ? match[3] : '/';
  if (pathTemplate.split('/').some((segment) => segment === '.' || segment === '..')) {
    // servers collapse them: a configuration error, not one of the model's arguments
    throw new ToolError(
      'CONFIG_INVALID',
      `tool "${tool}": the url path ${JSON.stringify(pathTemplate)} has a "." or ".." segment, which servers collapse; write the path it means`,
    );
  }
  if (hasStrayBrace(pathTemplate))
    throw new ToolError('CONFIG_INVALID', strayBraceMessage(tool, pathTemplate));
  return {
    origin: parsed.origin,
    host: parsed.host,
    protocol: parsed.protocol as 'http:' | 'https:',
    pathTemplate: pathTemplate.startsWith('/') ? pathTemplate : `/${pathTemplate}`,
    staticQuery: match[4] ?? '',
  };
}

/** Says a url path has a brace outside a `{name}` placeholder. */
export function strayBraceMessage(tool: string, pathTemplate: string): string {
  return `tool "${tool}": the url path ${JSON.stringify(pathTemplate.slice(0, 200))} has a "{" or "}" outside a {name} placeholder; close the placeholder or percent-encode the brace (%7B, %7D)`;
}

/**
 * The path of a configured url as far as it is known before `${VAR}` is read (the text after the
 * host, or after the first `${VAR}`, without the query), for checks at creation.
 */
export function configuredPath(url: string): string {
  const afterOrigin = url.replace(/^https?:\/\/[^/?#]*/i, '').replace(/^\$\{[^}]*\}/, '');
  return withoutEnvReferences(afterOrigin.split('?')[0] as string);
}

/**
 * `text` without its `${...}` parts. A scan, not `/\$\{[^}]*\}/g`: with no `}` after them, that
 * expression reads to the end again from every `${`, quadratic in a long run of them.
 */
function withoutEnvReferences(text: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const start = text.indexOf('${', from);
    const end = start === -1 ? -1 : text.indexOf('}', start + 2);
    if (end === -1) return out + text.slice(from);
    out += text.slice(from, start);
    from = end + 1;
  }
}
