import { isProxy } from 'node:util/types';
import { type ToolResult, describeInvalidResult } from '@toolplane/core';
import { thrownMessage } from './thrown.js';

/** How deep structured output may nest (as deep as mcp-provider takes a server's answer). */
const MAX_DEPTH = 1000;

/**
 * Why a result's `structured` is not JSON data, naming the path, or undefined. An app reads
 * `structured` as the tool's typed answer and callers send it on as JSON (an MCP
 * `structuredContent`, a model message): what JSON would drop or change (a function, a symbol,
 * a Map or Set as `{}`, a Date or class instance as a string or bare fields, NaN as null) would
 * reach them as something the tool never said. Any JSON value is fine at the top, as core types
 * it (`unknown`): a REST body may be an array or a string; the MCP gateway sends only an object
 * as `structuredContent`. A field whose value is `undefined` is left out, as JSON does.
 */
export function structuredProblem(structured: unknown): string | undefined {
  if (structured === undefined) return undefined;
  return dataProblem(structured, 'structured', [], 0);
}

/**
 * Why a result an app middleware or a hook answers is not a valid `ToolResult`, its content
 * blocks and `structured` included (JSON data, as a provider's must be), or undefined. Reading
 * it may throw (a getter): that is a problem too.
 */
export function invalidResultProblem(result: unknown): string | undefined {
  try {
    return (
      describeInvalidResult(result) ??
      contentProblem(result as ToolResult) ??
      ((result as ToolResult).ok
        ? structuredProblem((result as ToolResult & { ok: true }).structured)
        : undefined)
    );
  } catch (error) {
    return `it cannot be read: ${thrownMessage(error)}`;
  }
}

function dataProblem(value: unknown, path: string, parents: unknown[], depth: number): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${path} is ${value}, which JSON sends as null`;
    case 'object':
      break;
    default:
      return `${path} is a ${typeof value}, which JSON cannot carry`;
  }
  if (value === null) return undefined;
  if (depth >= MAX_DEPTH) return `${path} nests deeper than ${MAX_DEPTH} levels`;
  if (isProxy(value)) return `${path} is a Proxy: return plain data`;
  if (parents.includes(value)) return `${path} refers back to itself (a cycle)`;
  parents.push(value);
  const problem = Array.isArray(value)
    ? arrayProblem(value, path, parents, depth)
    : objectProblem(value, path, parents, depth);
  parents.pop();
  return problem;
}

function arrayProblem(list: unknown[], path: string, parents: unknown[], depth: number): string | undefined {
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (item === undefined) return `${path}[${i}] is undefined, which JSON sends as null`;
    const problem = dataProblem(item, `${path}[${i}]`, parents, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

function objectProblem(value: object, path: string, parents: unknown[], depth: number): string | undefined {
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return `${path} is ${notPlain(value)}`;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const field = record[key];
    if (field === undefined) continue;
    const problem = dataProblem(field, `${path}${fieldPath(key)}`, parents, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

function notPlain(value: object): string {
  if (value instanceof Date) return 'a Date, which JSON turns into a string: send date.toISOString()';
  if (value instanceof Map) return 'a Map, which JSON turns into {}: send Object.fromEntries(map)';
  if (value instanceof Set) return 'a Set, which JSON turns into {}: send [...set]';
  const name: unknown = (value as { constructor?: { name?: unknown } }).constructor?.name;
  const shown = typeof name === 'string' && name !== '' ? name.slice(0, 40) : 'class';
  return `a ${shown} instance, which JSON turns into its bare fields: send a plain object`;
}

function fieldPath(key: string): string {
  const short = key.slice(0, 40);
  return /^[A-Za-z_$][\w$]*$/.test(short) ? `.${short}` : `[${JSON.stringify(short)}]`;
}

/**
 * Why content block `index` is not a plain object, or undefined: a Proxy or an instance of a
 * class may answer a second read differently (core checks a block, then the size cap, the byte
 * count and the caller read it again). Getters are found where each field is read
 * ({@link plainField}).
 */
export function blockShapeProblem(block: object, index: number): string | undefined {
  if (isProxy(block)) return `content[${index}] is a Proxy: return plain data`;
  const prototype: unknown = Object.getPrototypeOf(block);
  if (prototype !== Object.prototype && prototype !== null)
    return `content[${index}] is not a plain object: return plain data`;
  return undefined;
}

/** A field's value when it is a plain own data field, or `GETTER` when it is read through a getter. */
export function plainField(block: object, key: string): unknown {
  const field = Object.getOwnPropertyDescriptor(block, key);
  return field && 'value' in field ? field.value : GETTER;
}

/** What {@link plainField} answers for a field read through a getter. */
export const GETTER: unique symbol = Symbol('getter');

/** Fields of a content block core has checked to be strings (the rest may hold anything). */
const STRING_FIELDS: ReadonlySet<string> = new Set(['type', 'text', 'data', 'mimeType', 'uri', 'name']);

/**
 * Why a result's content is not JSON data (a cycle or a BigInt in `annotations`, `_meta`,
 * `resource`...), or undefined: callers send results on as JSON (an MCP answer, a model
 * message), where such a result would throw. Only fields that are not plain strings are
 * serialized.
 */
export function contentProblem(result: ToolResult): string | undefined {
  const content = result.content;
  if (!content) return undefined;
  if (isProxy(content)) return 'content is a Proxy: return plain data';
  for (let i = 0; i < content.length; i++) {
    const block = content[i] as unknown as Record<string, unknown>;
    const shape = blockShapeProblem(block, i);
    if (shape) return shape;
    for (const key in block) {
      // read once, as data: a getter could answer the next read (the size cap's) differently
      const field = plainField(block, key);
      if (field === GETTER) return `content[${i}].${key.slice(0, 40)} is a getter: return plain data`;
      if (typeof field === 'string' || STRING_FIELDS.has(key)) continue;
      try {
        JSON.stringify(field);
      } catch (error) {
        const why = error instanceof RangeError ? 'it nests too deeply' : thrownMessage(error).split('\n')[0];
        return `content[${i}].${key.slice(0, 40)} is not JSON data: ${why}`;
      }
    }
  }
  return undefined;
}
