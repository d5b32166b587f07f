import { ToolError } from '@toolplane/core';

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

const URL_PARTS = /^(https?):\/\/([^/?#]+)([^?#]*)(?:\?([^#]*))?$/i;

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
  return {
    origin: parsed.origin,
    host: parsed.host,
    protocol: parsed.protocol as 'http:' | 'https:',
    pathTemplate: pathTemplate.startsWith('/') ? pathTemplate : `/${pathTemplate}`,
    staticQuery: match[4] ?? '',
  };
}
