/**
 * One server entry of a foreign config file turned into the shape of our typed config (not yet
 * interpolated or validated), so one validator serves every format.
 */

import { LONGEST_TIMER_MS } from './schema.js';
import { unknownKeyMessage, unknownKeys } from './unknown-keys.js';

/** A raw server entry after format normalization, before interpolation and validation. */
export type RawServerEntry = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Key of a normalized entry that lists what its format's own fields got wrong. */
export const FORMAT_PROBLEMS = '__formatProblems';

/** A field of a foreign format that cannot be carried over (given twice, or of the wrong shape). */
export interface FormatProblem {
  readonly field: string;
  readonly what: string;
}

const TYPE_ALIASES: Readonly<Record<string, string>> = {
  stdio: 'stdio',
  local: 'stdio',
  http: 'http',
  'streamable-http': 'http',
  streamableHttp: 'http',
  streamable_http: 'http',
  sse: 'sse',
  ws: 'websocket',
  websocket: 'websocket',
};

/** A `toolsDenied` pattern that matches every tool name. */
const DENY_ALL = '*';

/** Cline and Roo Code allow a `timeout` of 1 to 3600 seconds (default 60). */
const LONGEST_TIMEOUT_IN_SECONDS = 3600;

/**
 * The request timeout in ms of another tool's `timeout`: seconds in Cline's and Roo Code's
 * files (1 to 3600), milliseconds in Gemini CLI's and Claude Code's (Gemini's default is
 * 600 000; Claude Code ignores values under 1000). A value up to 3600 is read as seconds: read
 * as milliseconds, Cline's default 60 would fail every call slower than 60 ms.
 */
function timeoutMs(timeout: number): number {
  // rounded up: a fraction of a millisecond is still more than 0
  return Math.ceil(timeout <= LONGEST_TIMEOUT_IN_SECONDS ? timeout * 1000 : timeout);
}

const TIMEOUT_MEANING =
  'the request timeout (seconds up to 3600, milliseconds above), or set requestTimeoutMs';

/** Why another tool's `timeout` cannot be a request timeout, or undefined when it can (or is absent). */
function timeoutProblemOf(timeout: unknown): string | undefined {
  if (timeout === undefined) return undefined;
  if (typeof timeout !== 'number' || Number.isNaN(timeout)) return `must be a number: ${TIMEOUT_MEANING}`;
  if (timeout <= 0) return `must be more than 0: ${TIMEOUT_MEANING}`;
  if (timeoutMs(timeout) > LONGEST_TIMER_MS) {
    return `must be at most ${LONGEST_TIMER_MS} milliseconds (about 24.8 days), the longest a timer can wait: lower it`;
  }
  return undefined;
}

/**
 * Whether `given` is the same list of strings as `strings` (compared item by item: `JSON.stringify`
 * of a value nested 100 000 levels deep overflowed the stack, and the config failed to load).
 */
function sameStrings(given: unknown, strings: readonly string[]): boolean {
  return (
    Array.isArray(given) &&
    given.length === strings.length &&
    given.every((item, index) => item === strings[index])
  );
}

/**
 * VS Code allows numbers as env values (`"PORT": 3000`): they are passed as their decimal
 * text. Anything else that is not a string stays, for the validator to report by name.
 */
function numbersAsText(env: Record<string, unknown>): Record<string, unknown> {
  // null prototype: a "__proto__" key stays a key (the validator refuses it by name)
  const out: Record<string, unknown> = Object.create(null);
  for (const [name, value] of Object.entries(env)) {
    out[name] = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  }
  return out;
}

/**
 * Maps the field spellings of Claude, Cursor, Windsurf, Gemini CLI, VS Code and Zed onto ours.
 * With `known` (our own format), a key outside it is a problem naming the key that was meant.
 */
export function normalizeEntry(entry: Record<string, unknown>, known?: ReadonlySet<string>): RawServerEntry {
  const out: RawServerEntry = { ...entry };
  delete out[FORMAT_PROBLEMS]; // only this function sets it
  const problems: FormatProblem[] = [];
  if (known) {
    for (const key of unknownKeys(entry, known)) {
      problems.push({ field: key, what: unknownKeyMessage(key, known, 'a server') });
    }
  }
  // Windsurf says serverUrl, Gemini CLI says httpUrl (streamable HTTP). Beside a url that
  // differs, either would be a guess (Gemini CLI itself takes httpUrl over url).
  for (const spelling of ['httpUrl', 'serverUrl'] as const) {
    if (entry.url !== undefined && entry[spelling] !== undefined && entry[spelling] !== entry.url) {
      problems.push({ field: spelling, what: `and url name different URLs: keep one` });
    }
  }
  if (out.url === undefined && typeof entry.serverUrl === 'string') out.url = entry.serverUrl;
  if (out.url === undefined && typeof entry.httpUrl === 'string') {
    out.url = entry.httpUrl;
    out.type ??= 'http';
  }
  delete out.serverUrl;
  delete out.httpUrl;
  // Zed nests the command: { command: { path, args, env } } in older versions.
  if (isRecord(entry.command)) {
    const nested = entry.command;
    for (const field of ['args', 'env'] as const) {
      if (nested[field] !== undefined && entry[field] !== undefined) {
        problems.push({
          field,
          what: `is given both in "command" (Zed's nested form) and beside it: keep one`,
        });
      }
    }
    out.command = nested.path ?? nested.command;
    if (nested.args !== undefined) out.args = nested.args;
    if (nested.env !== undefined) out.env = nested.env;
  }
  if (isRecord(out.env)) out.env = numbersAsText(out.env);
  // Checked here, under the name the user wrote (the validator would name requestTimeoutMs).
  const timeoutProblem = timeoutProblemOf(entry.timeout);
  if (timeoutProblem !== undefined) problems.push({ field: 'timeout', what: timeoutProblem });
  else if (out.requestTimeoutMs === undefined && typeof entry.timeout === 'number')
    out.requestTimeoutMs = timeoutMs(entry.timeout);
  delete out.timeout;
  // Claude Code: `disabled`.
  if (entry.disabled === true && out.enabled === undefined) out.enabled = false;
  // a disabled that is not a boolean stays, for the validator to report
  if (typeof entry.disabled === 'boolean') delete out.disabled;
  if (typeof out.type === 'string') out.type = TYPE_ALIASES[out.type] ?? out.type;
  else if (out.type === undefined && out.command !== undefined) out.type = 'stdio';
  // Gemini CLI's tool filters are ours under other names: dropped, every tool would be exposed.
  let denyAll = false;
  for (const [theirs, ours] of [
    ['includeTools', 'toolsAllowed'],
    ['excludeTools', 'toolsDenied'],
  ] as const) {
    const value = entry[theirs];
    delete out[theirs];
    if (value === undefined) continue;
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
      problems.push({ field: theirs, what: 'must be an array of tool names (["search"])' });
    } else if (theirs === 'includeTools' && value.some((item) => parenthesesIn(item) > MAX_PARENTHESES)) {
      // each "(" may end a tool name, and every name before one is kept: a megabyte of "(" made
      // as many names, terabytes of text, while the config loaded
      problems.push({
        field: theirs,
        what: `has an entry with more than ${MAX_PARENTHESES} "(" (each may end a tool name): write the tool name, or name(arguments)`,
      });
    } else if (theirs === 'includeTools' && value.length === 0 && entry[ours] === undefined) {
      // Gemini CLI keeps a tool only when the list names it: an empty list keeps none (our own
      // toolsAllowed refuses to be empty), so every tool of this server is denied.
      denyAll = true;
    } else if (entry[ours] === undefined) {
      out[ours] = geminiToolPatterns(value, theirs === 'includeTools');
      // entries that name no tool at all: an includeTools of those keeps none, as [] does
      if (theirs === 'includeTools' && (out[ours] as string[]).length === 0) {
        delete out[ours];
        denyAll = true;
      }
    } else if (!sameStrings(entry[ours], value)) {
      problems.push({ field: theirs, what: `and ${ours} differ: keep one` });
    }
  }
  if (denyAll && (out.toolsDenied === undefined || Array.isArray(out.toolsDenied))) {
    out.toolsDenied = [DENY_ALL, ...((out.toolsDenied as unknown[] | undefined) ?? [])];
  }
  // Fields of other tools that do not concern us.
  for (const key of ['source', 'settings', 'trust', 'description']) delete out[key];
  if (problems.length > 0) out[FORMAT_PROBLEMS] = problems;
  return out;
}

/** "(" an `includeTools` entry may hold: each may end a tool name, which is kept. */
const MAX_PARENTHESES = 16;

function parenthesesIn(text: string): number {
  let count = 0;
  for (
    let index = text.indexOf('(');
    index !== -1 && count <= MAX_PARENTHESES;
    index = text.indexOf('(', index + 1)
  )
    count++;
  return count;
}

/** Glob characters of `toolsAllowed`/`toolsDenied` patterns, and a leading `!` (refused there). */
const GLOB_CHARACTERS = /[\\*?[\]{}]/g;

/** A tool name as a pattern that matches only that name. */
function exactPattern(name: string): string {
  const escaped = name.replace(GLOB_CHARACTERS, '\\$&');
  return escaped.startsWith('!') ? `\\${escaped}` : escaped;
}

/**
 * Gemini CLI's `includeTools`/`excludeTools` as our patterns. Gemini CLI compares names, not
 * globs (`isEnabled` in its packages/core/src/tools/mcp-client.ts): an `excludeTools` entry hides
 * the tool of exactly that name; an `includeTools` entry keeps the tool of exactly that name and
 * every tool `name` the entry starts with followed by `(` (`"search(query)"` keeps `search`).
 * An empty entry names no tool and is left out.
 */
function geminiToolPatterns(entries: readonly string[], include: boolean): string[] {
  const names = new Set<string>();
  for (const entry of entries) {
    if (entry === '') continue;
    names.add(entry);
    if (!include) continue;
    for (let index = entry.indexOf('(', 1); index > 0; index = entry.indexOf('(', index + 1)) {
      names.add(entry.slice(0, index));
    }
  }
  return [...names].map(exactPattern);
}
