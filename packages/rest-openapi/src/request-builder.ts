import { ToolError } from '@toolplane/core';
import { FormData } from 'undici';
import type { RestBodyBinding, RestMethod, RestParameterBinding, RestToolConfig } from './config.js';
import { encodeStrict, isPlainObject, scalarText } from './encoding.js';
import { fillPath, pathPlaceholders } from './path.js';
import { defaultQueryBinding, serializeQueryValue } from './query.js';
import { argNamesIn, expandEnv, expandString, fillBodyTemplate, templateArgNames } from './template.js';
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

/** How the arguments of a tool are placed, worked out once from its configuration. */
export interface ArgumentPlan {
  readonly pathArgumentFor: (placeholder: string) => string;
  readonly explicit: Readonly<Record<string, RestParameterBinding>>;
  readonly body?: RestBodyBinding;
  /** Arguments used by `{{name}}` in headers or the body template. */
  readonly templated: ReadonlySet<string>;
  readonly queryNames: ReadonlySet<string>;
  /** Where leftover arguments go. */
  readonly leftovers: 'query' | 'json-body';
}

const BODYLESS: ReadonlySet<RestMethod> = new Set<RestMethod>(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

/** Works out where each argument of a tool goes. */
export function planArguments(config: RestToolConfig): ArgumentPlan {
  const explicit = config.parameters ?? {};
  const pathByWireName = new Map<string, string>();
  for (const [argument, binding] of Object.entries(explicit)) {
    if (binding.in === 'path') pathByWireName.set(binding.name ?? argument, argument);
  }
  const templated = templateArgNames(config.bodyTemplate);
  for (const value of Object.values(config.headers ?? {}))
    for (const name of argNamesIn(value)) templated.add(name);
  const hasBody = config.body !== undefined || config.bodyTemplate !== undefined;
  return {
    pathArgumentFor: (placeholder) => pathByWireName.get(placeholder) ?? placeholder,
    explicit,
    ...(config.body ? { body: config.body } : {}),
    templated,
    queryNames: new Set(config.queryParamNames ?? []),
    leftovers: BODYLESS.has(config.method) || hasBody ? 'query' : 'json-body',
  };
}

function refuseLineBreaks(value: string, what: string, code: 'INVALID_ARGUMENTS' | 'CONFIG_INVALID'): void {
  if (/[\r\n\0]/.test(value)) {
    throw new ToolError(
      code,
      code === 'INVALID_ARGUMENTS'
        ? `${what} contains CR, LF or NUL, which could inject headers; pass a value on one line`
        : `${what} contains CR, LF or NUL after expansion; fix the configuration or the environment`,
    );
  }
}

function headerText(value: unknown, explode: boolean): string {
  if (Array.isArray(value)) return value.map(scalarText).join(',');
  if (isPlainObject(value))
    return Object.entries(value)
      .map(([key, item]) => (explode ? `${key}=${scalarText(item)}` : `${key},${scalarText(item)}`))
      .join(',');
  return scalarText(value);
}

/** Cookie pairs in OpenAPI `form` style (the only cookie style). */
function cookiePairs(name: string, value: unknown, binding: RestParameterBinding): string[] {
  const key = encodeStrict(name);
  if (binding.json) return [`${key}=${encodeStrict(JSON.stringify(value))}`];
  const explode = binding.explode ?? false;
  if (Array.isArray(value)) {
    const items = value.map((item) => encodeStrict(scalarText(item)));
    return explode ? items.map((item) => `${key}=${item}`) : [`${key}=${items.join(',')}`];
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value).map(([field, item]) => [
      encodeStrict(field),
      encodeStrict(scalarText(item)),
    ]);
    return explode
      ? entries.map(([field, item]) => `${field}=${item}`)
      : [`${key}=${entries.flat().join(',')}`];
  }
  return [`${key}=${encodeStrict(scalarText(value))}`];
}

function encodeForm(value: unknown): string {
  if (!isPlainObject(value)) return encodeStrict(scalarText(value));
  const pairs: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || item === null) continue;
    if (Array.isArray(item))
      for (const part of item) pairs.push(`${encodeStrict(key)}=${encodeStrict(scalarText(part))}`);
    else pairs.push(`${encodeStrict(key)}=${encodeStrict(scalarText(item))}`);
  }
  return pairs.join('&');
}

function multipart(value: unknown): FormData {
  const form = new FormData();
  if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined || item === null) continue;
      if (Array.isArray(item)) for (const part of item) form.append(key, scalarText(part));
      else form.append(key, scalarText(item));
    }
  } else form.append('value', scalarText(value));
  return form;
}

function isJsonType(contentType: string): boolean {
  const base = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return base === 'application/json' || base.endsWith('+json');
}

function encodeBody(value: unknown, contentType: string): { body: string | FormData; contentType?: string } {
  const base = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (isJsonType(contentType)) return { body: JSON.stringify(value), contentType };
  if (base === 'application/x-www-form-urlencoded') return { body: encodeForm(value), contentType };
  // FormData sets its own content type with the boundary.
  if (base === 'multipart/form-data') return { body: multipart(value) };
  return { body: scalarText(value), contentType };
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
  readonly split?: SplitUrl;
}): PreparedRequest {
  const { tool, config, plan, args, env } = options;
  const split = options.split ?? splitToolUrl(expandEnv(config.url, env, `tool "${tool}" url`), tool);
  const used = new Set<string>();
  const placeholders = pathPlaceholders(split.pathTemplate);
  for (const placeholder of placeholders) used.add(plan.pathArgumentFor(placeholder));
  const path = fillPath(split.pathTemplate, args, plan.explicit, plan.pathArgumentFor);

  const query: string[] = split.staticQuery ? [split.staticQuery] : [];
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const [argument, binding] of Object.entries(plan.explicit)) {
    used.add(argument);
    const value = args[argument];
    if (value === undefined || value === null || binding.in === 'path') continue;
    if (binding.in === 'query') serializeQueryValue(argument, value, binding, query);
    else if (binding.in === 'header') {
      const text = binding.json ? JSON.stringify(value) : headerText(value, binding.explode ?? false);
      refuseLineBreaks(text, `header argument "${argument}"`, 'INVALID_ARGUMENTS');
      headers[(binding.name ?? argument).toLowerCase()] = text;
    } else {
      cookies.push(...cookiePairs(binding.name ?? argument, value, binding));
    }
  }

  for (const [name, template] of Object.entries(config.headers ?? {})) {
    for (const argument of argNamesIn(template)) {
      refuseLineBreaks(
        scalarText(args[argument] ?? ''),
        `argument "${argument}" (used in header ${name})`,
        'INVALID_ARGUMENTS',
      );
    }
    const value = expandString(template, { env, args }, `header ${name} of tool "${tool}"`);
    refuseLineBreaks(value, `header ${name} of tool "${tool}"`, 'CONFIG_INVALID');
    headers[name.toLowerCase()] = value;
  }
  for (const name of plan.templated) used.add(name);

  let body: string | FormData | undefined;
  let contentType: string | undefined;
  if (plan.body) {
    used.add(plan.body.argument);
    const value = args[plan.body.argument];
    if (value !== undefined) ({ body, contentType } = encodeBody(value, plan.body.contentType));
  } else if (config.bodyTemplate !== undefined) {
    const filled = fillBodyTemplate(config.bodyTemplate, { env, args });
    if (typeof filled === 'string') {
      body = filled;
      contentType = 'text/plain; charset=utf-8';
    } else {
      body = JSON.stringify(filled);
      contentType = 'application/json';
    }
  }

  const leftovers: Record<string, unknown> = {};
  for (const [argument, value] of Object.entries(args)) {
    if (used.has(argument) || value === undefined) continue;
    if (plan.queryNames.has(argument) || plan.leftovers === 'query') {
      serializeQueryValue(
        argument,
        value,
        defaultQueryBinding(value, config.hasComplexQueryParams === true),
        query,
      );
    } else leftovers[argument] = value;
  }
  if (plan.leftovers === 'json-body' && body === undefined) {
    body = JSON.stringify(leftovers);
    contentType = 'application/json';
  }

  if (cookies.length > 0)
    headers.cookie = headers.cookie ? `${headers.cookie}; ${cookies.join('; ')}` : cookies.join('; ');
  if (contentType && headers['content-type'] === undefined) headers['content-type'] = contentType;
  if (headers.accept === undefined) headers.accept = 'application/json, text/plain;q=0.9, */*;q=0.8';
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
