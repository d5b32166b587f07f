import { kindOf } from './operation-model.js';
import { isUnsafeUrl } from '@apidevtools/json-schema-ref-parser';
import { isIP } from 'node:net';
import { ToolError } from '@toolplane/core';
import { isPublicAddress } from '@toolplane/address-guard';
import type { OpenAPIV2 } from 'openapi-types';
import { ServerRefused } from './scheme-refused.js';
import { type Server, fillVariables } from './server-variables.js';

/** How the importer picks the base URL. */
export interface ServerChoice {
  /** Overrides every server of the document (may use `${ENV}`). */
  readonly baseUrl?: string;
  /** Index into the servers list, or the URL of one of them (default: the first). */
  readonly server?: number | string;
  /** Values for server variables (default: each variable's default). */
  readonly serverVariables?: Readonly<Record<string, string>>;
}

/**
 * `text` without the slashes it ends with. A loop, not `/\/+$/`: that expression tries again
 * at every slash of a run that does not end the text, quadratic in a document's long run.
 */
function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x2f) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** The server choice with what the importer works out: the `${VAR}` relative servers go after. */
export interface ResolvedChoice extends ServerChoice {
  /**
   * `${<PREFIX>_BASE_URL}`: the origin a relative server of a document that came from no URL
   * is taken against, read from the environment when the tool is called.
   */
  readonly relativeBase?: string;
}

/** The path a relative reference names under `basePath` (`/api`, `v1` -> `/v1`), without trailing slashes. */
function relativePath(url: string, basePath = ''): string {
  const resolved = new URL(url || '/', `http://relative.invalid${basePath}/`);
  return withoutTrailingSlashes(`${resolved.pathname}${resolved.search}`);
}

/**
 * An absolute base URL for a server. `//host/path` (scheme-relative, as documents converted from
 * Swagger 2.0 write a `host` without `schemes`) takes the document's scheme, or https. A relative
 * server of a document from no URL goes after `relativeBase` (`${API_BASE_URL}/api`).
 */
function absolute(
  url: string,
  location: string | undefined,
  fallback?: string,
  relativeBase?: string,
): string {
  if (/^https?:\/\//i.test(url) || url.startsWith('${')) return withoutTrailingSlashes(url);
  if (location && /^https?:\/\//i.test(location))
    return withoutTrailingSlashes(new URL(url || '/', location).href);
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) {
    throw new ToolError('CONFIG_INVALID', `the server URL ${JSON.stringify(url)} is not http or https`);
  }
  // a relative path- or operation-level server is taken relative to the document's own server
  if (fallback && /^https?:\/\//i.test(fallback))
    return withoutTrailingSlashes(new URL(url || '/', `${fallback}/`).href);
  if (url.startsWith('//')) return withoutTrailingSlashes(new URL(`https:${url}`).href);
  if (relativeBase !== undefined) {
    const under = fallback?.startsWith(relativeBase) ? fallback.slice(relativeBase.length) : '';
    return `${relativeBase}${relativePath(url, under)}`;
  }
  throw new ToolError(
    'CONFIG_INVALID',
    `the server URL ${JSON.stringify(url)} is relative and the document was not loaded from a URL; pass baseUrl (for example https://api.example.com${url.startsWith('/') ? url : ''})`,
  );
}

/** Whether a server URL (variables filled) is relative to the document: no scheme and no `//host`. */
export function isRelativeServer(url: string): boolean {
  return !/^([a-z][a-z0-9+.-]*:|\/\/|\$\{)/i.test(url);
}

/**
 * Fills the variables of the document's server that operations without servers of their own
 * use, so a bad value stops the import (`CONFIG_INVALID` naming it) instead of skipping every
 * operation one by one.
 */
export function checkDocumentServer(documentServers: readonly Server[], choice: ServerChoice): void {
  if (choice.baseUrl || documentServers.length === 0) return;
  const server =
    typeof choice.server === 'number'
      ? documentServers[choice.server]
      : typeof choice.server === 'string'
        ? documentServers.find((item) => item.url === choice.server)
        : documentServers[0];
  if (server) filledServer(server, choice);
}

/** Base URL (no trailing slash) of an OpenAPI 3.x operation. */
export function baseUrl3(
  documentServers: readonly Server[],
  operationServers: readonly Server[] | undefined,
  choice: ResolvedChoice,
  location: string | undefined,
): string {
  if (choice.baseUrl) return absolute(choice.baseUrl, location);
  const servers = operationServers && operationServers.length > 0 ? operationServers : documentServers;
  if (servers.length === 0) return absolute('/', location, undefined, choice.relativeBase);
  const pick = (list: readonly Server[]): Server | undefined => {
    if (typeof choice.server === 'number') return list[choice.server] ?? list[0];
    if (typeof choice.server === 'string') return list.find((item) => item.url === choice.server) ?? list[0];
    return list[0];
  };
  const server = servers === documentServers ? pick(servers) : ownServer(servers, choice);
  const documentServer = servers === documentServers ? undefined : pick(documentServers);
  const filledDocument = documentServer ? filledServer(documentServer, choice) : undefined;
  // an operation's relative server goes under the document's, made absolute the same way
  // (`//host` as https, a relative one after relativeBase)
  const fallback =
    filledDocument !== undefined && (isRelativeServer(filledDocument) || filledDocument.startsWith('//'))
      ? absolute(filledDocument, location, undefined, choice.relativeBase)
      : filledDocument;
  return absolute(filledServer(server ?? {}, choice), location, fallback, choice.relativeBase);
}

/**
 * The server of an operation (or path) with servers of its own. Without a `server` choice, its
 * first. With one: the one at that index, or the one with that URL or under it
 * (`https://staging.example.com/files` for `https://staging.example.com`); a relative first
 * server follows the chosen one. Otherwise `CONFIG_INVALID`: its calls would go to a server the
 * operator did not choose (an upload to production while staging was chosen).
 */
function ownServer(list: readonly Server[], choice: ServerChoice): Server | undefined {
  if (choice.server === undefined) return list[0];
  const chosen = choice.server;
  const found =
    typeof chosen === 'number'
      ? list[chosen]
      : list.find((item) => {
          const url = typeof item.url === 'string' ? withoutTrailingSlashes(item.url) : undefined;
          const base = withoutTrailingSlashes(chosen);
          return url !== undefined && (url === base || url.startsWith(`${base}/`));
        });
  if (found) return found;
  const first = list[0];
  if (typeof first?.url === 'string' && !/^([a-z][a-z0-9+.-]*:|\{[^{}]+\}:)?\/\//i.test(first.url))
    return first;
  throw new ToolError(
    'CONFIG_INVALID',
    `it has servers of its own (${list.map((item) => String(item.url)).join(', ')}) and the chosen server ${JSON.stringify(chosen)} is not among them; pass baseUrl, or exclude the operation`,
  );
}

/** A server's URL with its variables filled; one with a query or fragment is refused. */
function filledServer(server: Server, choice: ServerChoice): string {
  const url = fillVariables(server, choice.serverVariables ?? {});
  if (/[?#]/.test(url)) {
    // the tool's path would go after it: https://api.example.com/v1?key=1/pets
    throw new ToolError(
      'CONFIG_INVALID',
      `the server URL ${JSON.stringify(url)} has a query or fragment, after which no path can go; pass baseUrl (without one)`,
    );
  }
  return url;
}

// host[:port], and the path some documents add to it although the specification says not to
const SWAGGER_HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~-]+)(?::\d{1,5})?(?:\/[A-Za-z0-9._~/-]*)?$/;

/**
 * The `basePath` of a Swagger 2.0 document, starting with `/` (which the specification requires;
 * without it the path would be glued to the host). Refuses (`CONFIG_INVALID`) a `host` that is
 * more than `host[:port]` and a `basePath` with a query, a fragment or `${...}`, which a tool
 * would read from the environment.
 */
export function checkSwaggerBase(document: Partial<OpenAPIV2.Document>): string {
  if (
    document.host !== undefined &&
    (typeof document.host !== 'string' || !SWAGGER_HOST.test(document.host))
  ) {
    throw new ToolError(
      'CONFIG_INVALID',
      `the document's host ${JSON.stringify(document.host)} must be a plain host[:port] (no scheme, user info, query or \${...}); pass baseUrl`,
    );
  }
  const basePath = typeof document.basePath === 'string' ? document.basePath : '';
  if (/[?#\\]|\$\{/.test(basePath)) {
    throw new ToolError(
      'CONFIG_INVALID',
      `the document's basePath ${JSON.stringify(basePath)} must be a path without a query, fragment, "\\" or \${...}; pass baseUrl`,
    );
  }
  return basePath === '' || basePath.startsWith('/') ? basePath : `/${basePath}`;
}

/** Base URL of a Swagger 2.0 document (`schemes`, `host`, `basePath`). */
export function baseUrl2(
  document: Partial<OpenAPIV2.Document>,
  choice: ResolvedChoice,
  location: string | undefined,
): string {
  if (choice.baseUrl) return absolute(choice.baseUrl, location);
  const basePath = checkSwaggerBase(document);
  if (typeof document.host !== 'string')
    return absolute(basePath || '/', location, undefined, choice.relativeBase);
  const schemes = Array.isArray(document.schemes) ? document.schemes.map(String) : [];
  const scheme = schemes.includes('https')
    ? 'https'
    : schemes.includes('http')
      ? 'http'
      : location?.startsWith('http:')
        ? 'http'
        : 'https';
  return withoutTrailingSlashes(`${scheme}://${document.host}${basePath}`);
}

/** Whether a URL's host is a local or private address by name or by literal address in any spelling (not by DNS). */
export function privateHost(url: URL): boolean {
  // the host alone: json-schema-ref-parser also calls some ports "internal", which servers may use
  if (isUnsafeUrl(`http://${url.hostname}/`)) return true;
  // and a literal address that is no public unicast (the NAT64 or 6to4 form of 127.0.0.1...)
  const bare = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(bare) !== 0 && !isPublicAddress(bare);
}

/**
 * Refuses (`ServerRefused`) a base URL the document chose on a local or private address when the
 * document came from a public origin (`publicOrigin`, undefined for any other document): only
 * its own origin may point there (as for the documents it refers to).
 */
export function checkServerAddress(base: string, publicOrigin: string | undefined, label: string): void {
  if (publicOrigin === undefined || !/^https?:\/\//i.test(base)) return;
  const server = new URL(base);
  if (server.origin === publicOrigin || !privateHost(server)) return;
  throw new ServerRefused(
    `${label}: the document from ${publicOrigin} names the server ${server.origin}, a local or private address, where calls and their credentials would go; pass baseUrl to choose the API's address (or load the document from that network)`,
  );
}

/**
 * A 3.x document's `servers` that is there but no list (`servers: { url }`) stops the import
 * unless `baseUrl` is passed: read as no servers, every operation would be skipped as relative to "/".
 */
export function checkServersList(servers: unknown, baseUrl: string | undefined): void {
  if (baseUrl || servers === undefined) return;
  if (Array.isArray(servers)) {
    for (const [index, server] of servers.entries()) {
      const url = (server as { url?: unknown } | null)?.url;
      const problem =
        typeof server !== 'object' || server === null || Array.isArray(server)
          ? `servers[${index}] is ${kindOf(server)}`
          : url === undefined
            ? `servers[${index}] has no url`
            : typeof url !== 'string'
              ? `servers[${index}].url is ${kindOf(url)}`
              : undefined;
      // read as "" every operation would be skipped as relative to the document
      if (problem)
        throw new ToolError(
          'CONFIG_INVALID',
          `the document's ${problem}, not a { url } object; fix the document or pass baseUrl`,
        );
    }
    return;
  }
  throw new ToolError(
    'CONFIG_INVALID',
    `the document's servers is ${kindOf(servers)}, not a list of { url } objects; fix the document or pass baseUrl`,
  );
}
