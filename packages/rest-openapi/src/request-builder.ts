import type { FormData } from 'undici';
import { encodeBody, wellFormedBody } from './body-encoding.js';
import type { RestBodyBinding, RestMethod, RestParameterBinding, RestToolConfig } from './config.js';
import { cookiePairs, headerText, refuseLineBreaks, refuseUnsendable } from './header-values.js';
import { type PathPart, compilePath, renderPath } from './path.js';
import { defaultQueryBinding, serializeQueryValue } from './query.js';
import {
  type TemplatePart,
  compileTemplate,
  fillBodyTemplate,
  renderTemplate,
  templateArgNames,
  templateUsesEnv,
} from './template.js';
import { own, setOwn } from './records.js';
import { expandToolUrl } from './tool-url.js';
import { type SplitUrl, splitToolUrl } from './url-template.js';

/** A request ready for undici: origin fixed by configuration, path and query already encoded. */
export interface PreparedRequest {
  readonly origin: string;
  readonly host: string;
  readonly protocol: 'http:' | 'https:';
  /** Encoded path plus `?query`. */
  readonly path: string;
  readonly method: RestMethod;
  readonly headers: Record<string, string>;
  readonly body?: string | FormData;
}

interface HeaderTemplate {
  readonly name: string;
  readonly parts: readonly TemplatePart[];
  readonly argNames: readonly string[];
}

interface CompiledUrl {
  readonly split: SplitUrl;
  readonly pathParts: readonly PathPart[];
  /** Arguments placed by this URL, explicit bindings, templates or the body binding. */
  readonly placed: ReadonlySet<string>;
}

/** How the arguments of a tool are placed, worked out once from its configuration. */
export interface ArgumentPlan {
  readonly pathArgumentFor: (placeholder: string) => string;
  readonly explicit: Readonly<Record<string, RestParameterBinding>>;
  readonly explicitEntries: readonly (readonly [string, RestParameterBinding])[];
  readonly body?: RestBodyBinding;
  /** Arguments used by `{{name}}` in headers or the body template. */
  readonly templated: ReadonlySet<string>;
  readonly queryNames: ReadonlySet<string>;
  /** Where leftover arguments go. */
  readonly leftovers: 'query' | 'json-body';
  readonly headers: readonly HeaderTemplate[];
  /** Configured headers filled from `${VAR}` (credentials, like auth's): dropped on a redirect to another origin. */
  readonly envHeaders: readonly string[];
  /** The body template holds `${VAR}` values: a redirect to another origin that keeps the body is refused. */
  readonly envBody: boolean;
  /** The URL after `${ENV}` expansion, split and compiled; cached by expanded text. */
  compiledUrl(url: string, tool: string): CompiledUrl;
}

const BODYLESS: ReadonlySet<RestMethod> = new Set<RestMethod>(['GET', 'HEAD', 'DELETE', 'OPTIONS']);
const DEFAULT_ACCEPT = 'application/json, text/plain;q=0.9, */*;q=0.8';

/** Works out where each argument of a tool goes, and compiles its templates. */
export function planArguments(config: RestToolConfig): ArgumentPlan {
  const explicit = config.parameters ?? {};
  const pathByWireName = new Map<string, string>();
  for (const [argument, binding] of Object.entries(explicit)) {
    if (binding.in === 'path') pathByWireName.set(binding.name ?? argument, argument);
  }
  const templated = templateArgNames(config.bodyTemplate);
  const headers: HeaderTemplate[] = [];
  for (const [name, value] of Object.entries(config.headers ?? {})) {
    const parts = compileTemplate(value);
    const argNames = parts.flatMap((part) => ('arg' in part ? [part.arg] : []));
    for (const argument of argNames) templated.add(argument);
    headers.push({ name: name.toLowerCase(), parts, argNames });
  }
  const hasBody = config.body !== undefined || config.bodyTemplate !== undefined;
  const pathArgumentFor = (placeholder: string): string => pathByWireName.get(placeholder) ?? placeholder;
  const urls = new Map<string, CompiledUrl>();
  return {
    pathArgumentFor,
    explicit,
    explicitEntries: Object.entries(explicit),
    ...(config.body ? { body: config.body } : {}),
    templated,
    queryNames: new Set(config.queryParamNames ?? []),
    leftovers: BODYLESS.has(config.method) || hasBody ? 'query' : 'json-body',
    headers,
    envHeaders: Object.entries(config.headers ?? {})
      .filter(([, value]) => typeof value === 'string' && value.includes('${'))
      .map(([name]) => name.toLowerCase()),
    envBody: templateUsesEnv(config.bodyTemplate),
    compiledUrl(url, tool) {
      const hit = urls.get(url);
      if (hit) return hit;
      const split = splitToolUrl(url, tool);
      const pathParts = compilePath(split.pathTemplate, pathArgumentFor);
      const placed = new Set<string>([...Object.keys(explicit), ...templated]);
      for (const part of pathParts) if (typeof part !== 'string') placed.add(part.argument);
      if (config.body) placed.add(config.body.argument);
      const compiled = { split, pathParts, placed };
      // a URL only varies with the environment; keep the cache small all the same
      if (urls.size > 16) urls.clear();
      urls.set(url, compiled);
      return compiled;
    },
  };
}

/**
 * Builds the request for one call. Path arguments are percent-encoded per segment and the
 * origin comes from configuration alone, so no argument can reach another host, path or query.
 */
export function buildRequest(options: {
  readonly tool: string;
  readonly config: RestToolConfig;
  readonly plan: ArgumentPlan;
  readonly args: Readonly<Record<string, unknown>>;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly userAgent: string;
}): PreparedRequest {
  const { tool, config, plan, args, env } = options;
  const { split, pathParts, placed } = plan.compiledUrl(expandToolUrl(config.url, env, tool), tool);
  const path = renderPath(pathParts, args, plan.explicit);

  const query: string[] = split.staticQuery ? [split.staticQuery] : [];
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [argument, binding] of plan.explicitEntries) {
    const value = own(args, argument);
    if (value === undefined || value === null || binding.in === 'path') continue;
    if (binding.in === 'query') serializeQueryValue(argument, value, binding, query);
    else if (binding.in === 'header') {
      const text = headerText(value, binding);
      refuseLineBreaks(text, `header argument "${argument}"`, 'INVALID_ARGUMENTS');
      refuseUnsendable(text, `header argument "${argument}"`);
      setOwn(headers, (binding.name ?? argument).toLowerCase(), text);
    } else {
      cookies ??= [];
      cookies.push(...cookiePairs(binding.name ?? argument, value, binding));
    }
  }

  for (const header of plan.headers) {
    for (const argument of header.argNames) {
      const value = own(args, argument);
      if (typeof value === 'string') {
        refuseLineBreaks(
          value,
          `argument "${argument}" (used in header ${header.name})`,
          'INVALID_ARGUMENTS',
        );
      }
    }
    const value = renderTemplate(header.parts, { env, args }, `header ${header.name} of tool "${tool}"`);
    refuseLineBreaks(value, `header ${header.name} of tool "${tool}"`, 'CONFIG_INVALID');
    if (header.argNames.length > 0)
      refuseUnsendable(value, `header ${header.name} (filled from ${header.argNames.join(', ')})`);
    setOwn(headers, header.name, value);
  }

  let body: string | FormData | undefined;
  let contentType: string | undefined;
  if (plan.body) {
    const value = own(args, plan.body.argument);
    if (value !== undefined) ({ body, contentType } = encodeBody(value, plan.body.contentType, plan.body));
  } else if (config.bodyTemplate !== undefined) {
    const filled = fillBodyTemplate(config.bodyTemplate, { env, args });
    if (typeof filled === 'string') {
      body = wellFormedBody(filled);
      contentType = 'text/plain; charset=utf-8';
    } else {
      body = JSON.stringify(filled);
      contentType = 'application/json';
    }
  }

  let leftovers: Record<string, unknown> | undefined;
  for (const argument in args) {
    const value = own(args, argument);
    if (value === undefined || placed.has(argument)) continue;
    if (plan.leftovers === 'query' || plan.queryNames.has(argument)) {
      serializeQueryValue(
        argument,
        value,
        defaultQueryBinding(value, config.hasComplexQueryParams === true),
        query,
      );
    } else {
      leftovers ??= {};
      setOwn(leftovers, argument, value);
    }
  }
  if (plan.leftovers === 'json-body' && body === undefined) {
    body = JSON.stringify(leftovers ?? {});
    contentType = 'application/json';
  }

  if (cookies)
    headers.cookie = headers.cookie ? `${headers.cookie}; ${cookies.join('; ')}` : cookies.join('; ');
  if (contentType && headers['content-type'] === undefined) headers['content-type'] = contentType;
  if (headers.accept === undefined) headers.accept = DEFAULT_ACCEPT;
  if (headers['user-agent'] === undefined) headers['user-agent'] = options.userAgent;

  return {
    origin: split.origin,
    host: split.host,
    protocol: split.protocol,
    path: query.length > 0 ? `${path}?${query.join('&')}` : path,
    method: config.method,
    headers,
    ...(body === undefined ? {} : { body }),
  };
}
