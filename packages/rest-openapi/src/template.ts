import { ToolError } from '@toolplane/core';
import { own, setOwn } from './records.js';

/** Where template values come from. */
export interface TemplateSources {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly args?: Readonly<Record<string, unknown>>;
}

const ENV_PATTERN = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const ARG_PATTERN = /\{\{\s*([^{}\s]+)\s*\}\}/g;
const WHOLE_ARG = /^\{\{\s*([^{}\s]+)\s*\}\}$/;

/** Names of the `${VAR}` environment variables a string uses. */
export function envNamesIn(text: string): string[] {
  return [...text.matchAll(ENV_PATTERN)].map((match) => match[1] as string);
}

/** Names of the `{{name}}` arguments a string uses. */
export function argNamesIn(text: string): string[] {
  return [...text.matchAll(ARG_PATTERN)].map((match) => match[1] as string);
}

/** Thrown (as `CONFIG_INVALID`) when a `${VAR}` is not set. */
export function missingEnv(name: string, where: string): ToolError {
  return new ToolError(
    'CONFIG_INVALID',
    `environment variable ${name} (used in ${where}) is not set; set it or pass it in the provider's env option`,
    { details: { variable: name } },
  );
}

/** Replaces `${VAR}` from the environment; a missing variable throws `CONFIG_INVALID`. */
export function expandEnv(text: string, env: TemplateSources['env'], where: string): string {
  if (!text.includes('${')) return text;
  return text.replace(ENV_PATTERN, (_whole, name: string) => {
    const value = own(env, name);
    if (value === undefined) throw missingEnv(name, where);
    return value;
  });
}

function argText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Replaces `${VAR}` from the environment and `{{name}}` from the arguments (missing arguments become ''). */
export function expandString(text: string, sources: TemplateSources, where: string): string {
  if (!text.includes('${') && !text.includes('{{')) return text;
  // one pass over the template: a value (from the environment or an argument) is never expanded again
  return renderTemplate(compileTemplate(text), sources, where);
}

/**
 * Fills a body template: a string that is exactly `{{name}}` becomes the argument's value with
 * its JSON type (and is dropped from objects when the argument is absent); `{{name}}` inside
 * text and `${VAR}` are interpolated; arrays and objects are filled recursively.
 */
export function fillBodyTemplate(template: unknown, sources: TemplateSources): unknown {
  if (typeof template === 'string') {
    const whole = WHOLE_ARG.exec(template);
    if (whole) return own(sources.args, whole[1] as string);
    return expandString(template, sources, 'bodyTemplate');
  }
  if (Array.isArray(template)) {
    return template.map((item) => fillBodyTemplate(item, sources)).filter((item) => item !== undefined);
  }
  if (template !== null && typeof template === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(template)) {
      const filled = fillBodyTemplate(value, sources);
      if (filled !== undefined) setOwn(out, key, filled);
    }
    return out;
  }
  return template;
}

/** Every `{{name}}` argument a body template uses, at any depth. */
export function templateArgNames(template: unknown, into: Set<string> = new Set()): Set<string> {
  if (typeof template === 'string') for (const name of argNamesIn(template)) into.add(name);
  else if (Array.isArray(template)) for (const item of template) templateArgNames(item, into);
  else if (template !== null && typeof template === 'object')
    for (const value of Object.values(template)) templateArgNames(value, into);
  return into;
}

/** Every `${VAR}` a body template uses, at any depth: credentials, like auth's values. */
export function templateEnvNames(template: unknown, into: Set<string> = new Set(), depth = 0): Set<string> {
  if (typeof template === 'string') for (const name of envNamesIn(template)) into.add(name);
  else if (depth <= 256 && template !== null && typeof template === 'object')
    for (const value of Array.isArray(template) ? template : Object.values(template))
      templateEnvNames(value, into, depth + 1);
  return into;
}

/**
 * The `${VAR}` a url reads in its path or query (`/bot${TOKEN}/send`, `?key=${KEY}`): credentials,
 * since failures name the path. One that makes the origin (`${API_BASE}/pets`,
 * `https://${HOST}/x`) is left out, so messages keep saying which API answered.
 */
export function urlPathEnvNames(url: string): string[] {
  const scheme = url.indexOf('://');
  const origin = scheme !== -1 ? scheme + 3 : url.startsWith('${') ? url.indexOf('}') + 1 : 0;
  const pathStart = url.indexOf('/', origin);
  if (pathStart === -1) return [];
  return [...url.matchAll(ENV_PATTERN)]
    .filter((match) => match.index >= pathStart)
    .map((match) => match[1] as string);
}

/** Whether a body template uses a `${VAR}` anywhere (a value that must not leave the API's origin). */
export function templateUsesEnv(template: unknown): boolean {
  return templateEnvNames(template).size > 0;
}

/** A piece of a compiled template: literal text, an environment variable or an argument. */
export type TemplatePart = { readonly text: string } | { readonly env: string } | { readonly arg: string };

const PARTS_PATTERN = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\{\{\s*([^{}\s]+)\s*\}\}/g;

/** Parses `${VAR}` and `{{name}}` once, so a call only concatenates. */
export function compileTemplate(text: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let last = 0;
  for (const match of text.matchAll(PARTS_PATTERN)) {
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    parts.push(match[1] !== undefined ? { env: match[1] } : { arg: match[2] as string });
    last = match.index + match[0].length;
  }
  if (last < text.length || parts.length === 0) parts.push({ text: text.slice(last) });
  return parts;
}

/** Renders a compiled template; a missing variable throws `CONFIG_INVALID`, a missing argument is ''. */
export function renderTemplate(
  parts: readonly TemplatePart[],
  sources: TemplateSources,
  where: string,
): string {
  if (parts.length === 1 && 'text' in (parts[0] as TemplatePart)) return (parts[0] as { text: string }).text;
  let out = '';
  for (const part of parts) {
    if ('text' in part) out += part.text;
    else if ('env' in part) {
      const value = own(sources.env, part.env);
      if (value === undefined) throw missingEnv(part.env, where);
      out += value;
    } else out += argText(own(sources.args, part.arg));
  }
  return out;
}
