import { CLIENT_HEADERS } from '../check-auth.js';
import type { CollectionFormat, RestBodyBinding, RestMethod, RestParameterBinding } from '../config.js';
import type { RefResolver } from './resolver.js';

/** A JSON object of a document, not yet checked. */
export type Mutable = Record<string, unknown>;

/** One parameter of an operation, dialect-neutral. */
export interface NormalizedParameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly required: boolean;
  readonly description?: string;
  readonly deprecated?: boolean;
  /** The raw (unconverted) schema. */
  readonly schema: unknown;
  readonly binding: RestParameterBinding;
}

/** The request body of an operation. */
export interface NormalizedBody {
  readonly contentType: string;
  readonly schema: unknown;
  readonly required: boolean;
  readonly description?: string;
  /** Swagger 2.0 form fields whose lists are joined ({@link RestBodyBinding.collectionFormats}). */
  readonly collectionFormats?: Readonly<Record<string, CollectionFormat>>;
}

/** One operation of a document, dialect-neutral. */
export interface NormalizedOperation {
  readonly method: RestMethod;
  readonly path: string;
  readonly operationId?: string;
  readonly summary?: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly deprecated: boolean;
  readonly parameters: readonly NormalizedParameter[];
  readonly body?: NormalizedBody;
  /** Security requirements (alternatives), or undefined for the document default. */
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
  /** What the operation's `security` is when it is there but no list (`'a string'`): said in a warning. */
  readonly malformedSecurity?: string;
  /** Servers of the path item or operation (3.x only). */
  readonly servers?: readonly Mutable[];
  /** For messages: `GET /pets/{id}`. */
  readonly label: string;
  /** What the importer could not carry over as written, for warnings. */
  readonly notes?: readonly string[];
}

/** An operation that could not be read, with the reason. */
export interface SkippedOperation {
  readonly label: string;
  readonly reason: string;
}

/**
 * Header parameters that are no arguments: those OpenAPI says to ignore (`Accept`,
 * `Content-Type`, `Authorization`) and those the HTTP client owns (`Host` and message framing).
 */
export const IGNORED_HEADERS: ReadonlySet<string> = new Set([
  'accept',
  'content-type',
  'authorization',
  ...CLIENT_HEADERS,
]);

/** Picks the content type a tool sends: JSON first, then forms, then text, then the first listed. */
export function pickContentType(types: readonly string[]): string | undefined {
  const lower = types.map((type) => type.toLowerCase());
  const index =
    [
      lower.findIndex((type) => type.split(';')[0]?.trim() === 'application/json'),
      lower.findIndex((type) => /\+json\b/.test(type) || type.startsWith('application/json')),
      lower.findIndex((type) => type.startsWith('application/x-www-form-urlencoded')),
      lower.findIndex((type) => type.startsWith('multipart/form-data')),
      lower.findIndex((type) => type.startsWith('text/')),
    ].find((found) => found !== -1) ?? (types.length > 0 ? 0 : -1);
  return index === -1 ? undefined : types[index];
}

/** True for JSON media types. */
export function isJsonMedia(type: string): boolean {
  const base = type.split(';')[0]?.trim().toLowerCase() ?? '';
  return base === 'application/json' || base.endsWith('+json');
}

/** Parameters of the path item and the operation, the operation winning on the same name and location. */
export function mergeParameters(
  resolver: RefResolver,
  lists: readonly unknown[][],
  label: string,
): Mutable[] {
  const merged = new Map<string, Mutable>();
  for (const list of lists) {
    for (const item of list) {
      const raw = resolver.follow<Mutable>(item as Mutable, label);
      if (typeof raw !== 'object' || raw === null) continue;
      merged.set(`${String(raw.in)}:${String(raw.name)}`, raw);
    }
  }
  return [...merged.values()];
}

/** The parts every dialect shares. */
export function common(
  operation: Mutable,
  pathItem: Mutable,
  parts: {
    method: RestMethod;
    path: string;
    label: string;
    parameters: NormalizedParameter[];
    body: NormalizedBody | undefined;
    notes?: readonly string[];
  },
): NormalizedOperation {
  const servers =
    asArray(operation.servers).length > 0 ? asArray(operation.servers) : asArray(pathItem.servers);
  return {
    method: parts.method,
    path: parts.path,
    label: parts.label,
    ...(parts.notes && parts.notes.length > 0 ? { notes: parts.notes } : {}),
    ...(typeof operation.operationId === 'string' && operation.operationId.trim()
      ? { operationId: operation.operationId.trim() }
      : {}),
    ...(typeof operation.summary === 'string'
      ? { summary: operation.summary }
      : typeof pathItem.summary === 'string'
        ? { summary: pathItem.summary }
        : {}),
    ...(typeof operation.description === 'string'
      ? { description: operation.description }
      : typeof pathItem.description === 'string'
        ? { description: pathItem.description }
        : {}),
    tags: asArray(operation.tags).filter((tag): tag is string => typeof tag === 'string'),
    deprecated: operation.deprecated === true,
    parameters: parts.parameters,
    ...(parts.body ? { body: parts.body } : {}),
    ...(Array.isArray(operation.security)
      ? { security: operation.security as NormalizedOperation['security'] & object }
      : operation.security !== undefined
        ? { malformedSecurity: kindOf(operation.security) }
        : {}),
    ...(servers.length > 0 ? { servers: servers as Mutable[] } : {}),
  };
}

/** `a string`, `a number`, `an object`, `null`...: what a value that should be a list is, for a warning. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** The value when it is an array, else an empty one. */
export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
