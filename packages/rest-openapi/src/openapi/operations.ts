import { ToolError } from '@toolplane/core';
import type { RestMethod, RestParameterBinding } from '../config.js';
import type { RefResolver } from './resolver.js';

type Mutable = Record<string, unknown>;

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
  /** Servers of the path item or operation (3.x only). */
  readonly servers?: readonly Mutable[];
  /** For messages: `GET /pets/{id}`. */
  readonly label: string;
}

/** An operation that could not be read, with the reason. */
export interface SkippedOperation {
  readonly label: string;
  readonly reason: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

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

function isJsonMedia(type: string): boolean {
  const base = type.split(';')[0]?.trim().toLowerCase() ?? '';
  return base === 'application/json' || base.endsWith('+json');
}

function parameter3(raw: Mutable, label: string): NormalizedParameter | undefined {
  const name = raw.name;
  const location = raw.in;
  if (typeof name !== 'string' || !['path', 'query', 'header', 'cookie'].includes(String(location))) {
    throw new ToolError('CONFIG_INVALID', `${label}: a parameter has no valid name or "in"`);
  }
  const where = location as NormalizedParameter['in'];
  if (where === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) return undefined;
  let schema = raw.schema;
  let json = false;
  if (schema === undefined && typeof raw.content === 'object' && raw.content !== null) {
    const types = Object.keys(raw.content);
    const chosen = pickContentType(types);
    if (chosen) {
      schema = ((raw.content as Mutable)[chosen] as Mutable | undefined)?.schema;
      json = isJsonMedia(chosen);
    }
  }
  const binding: RestParameterBinding = {
    in: where,
    name,
    ...(typeof raw.style === 'string' ? { style: raw.style as RestParameterBinding['style'] } : {}),
    ...(typeof raw.explode === 'boolean' ? { explode: raw.explode } : {}),
    ...(raw.allowReserved === true ? { allowReserved: true } : {}),
    ...(json ? { json: true } : {}),
  };
  return {
    name,
    in: where,
    required: where === 'path' || raw.required === true,
    ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
    ...(raw.deprecated === true ? { deprecated: true } : {}),
    schema: schema ?? {},
    binding,
  };
}

const SWAGGER_SCHEMA_KEYS = [
  'type',
  'format',
  'items',
  'enum',
  'default',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'multipleOf',
  'x-nullable',
];

function swaggerSchema(raw: Mutable): Mutable {
  const schema: Mutable = {};
  for (const key of SWAGGER_SCHEMA_KEYS) if (raw[key] !== undefined) schema[key] = raw[key];
  if (typeof schema.items === 'object' && schema.items !== null)
    schema.items = swaggerSchema(schema.items as Mutable);
  return schema;
}

function collectionBinding(raw: Mutable): Partial<RestParameterBinding> {
  if (raw.type !== 'array') return {};
  switch (raw.collectionFormat) {
    case 'multi':
      return { style: 'form', explode: true };
    case 'ssv':
      return { style: 'spaceDelimited', explode: false };
    case 'pipes':
      return { style: 'pipeDelimited', explode: false };
    default:
      // csv (the default) and tsv, which OpenAPI 3 dropped: comma-separated
      return raw.in === 'query' ? { style: 'form', explode: false } : {};
  }
}

function mergeParameters(resolver: RefResolver, lists: readonly unknown[][], label: string): Mutable[] {
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

function readOperation3(
  resolver: RefResolver,
  path: string,
  method: RestMethod,
  operation: Mutable,
  pathItem: Mutable,
): NormalizedOperation {
  const label = `${method} ${path}`;
  const raws = mergeParameters(
    resolver,
    [asArray(pathItem.parameters), asArray(operation.parameters)],
    label,
  );
  const parameters = raws
    .map((raw) => parameter3(raw, label))
    .filter((item): item is NormalizedParameter => item !== undefined);
  let body: NormalizedBody | undefined;
  if (operation.requestBody !== undefined) {
    const requestBody = resolver.follow<Mutable>(operation.requestBody as Mutable, label);
    const content = (requestBody.content ?? {}) as Mutable;
    const chosen = pickContentType(Object.keys(content));
    if (chosen) {
      body = {
        contentType: chosen,
        schema: (content[chosen] as Mutable | undefined)?.schema ?? {},
        required: requestBody.required === true,
        ...(typeof requestBody.description === 'string' ? { description: requestBody.description } : {}),
      };
    }
  }
  return common(operation, pathItem, { method, path, label, parameters, body });
}

function readOperation2(
  resolver: RefResolver,
  document: Mutable,
  path: string,
  method: RestMethod,
  operation: Mutable,
  pathItem: Mutable,
): NormalizedOperation {
  const label = `${method} ${path}`;
  const raws = mergeParameters(
    resolver,
    [asArray(pathItem.parameters), asArray(operation.parameters)],
    label,
  );
  const consumes = asArray(operation.consumes ?? document.consumes).filter(
    (item): item is string => typeof item === 'string',
  );
  const parameters: NormalizedParameter[] = [];
  let body: NormalizedBody | undefined;
  const formFields: Mutable = {};
  const formRequired: string[] = [];
  let hasFile = false;
  for (const raw of raws) {
    const name = raw.name;
    if (typeof name !== 'string') throw new ToolError('CONFIG_INVALID', `${label}: a parameter has no name`);
    if (raw.in === 'body') {
      body = {
        contentType: pickContentType(consumes) ?? 'application/json',
        schema: raw.schema ?? {},
        required: raw.required === true,
        ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
      };
    } else if (raw.in === 'formData') {
      if (raw.type === 'file') hasFile = true;
      formFields[name] = {
        ...swaggerSchema(raw),
        ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
      };
      if (raw.required === true) formRequired.push(name);
    } else if (['path', 'query', 'header'].includes(String(raw.in))) {
      const where = raw.in as NormalizedParameter['in'];
      if (where === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) continue;
      parameters.push({
        name,
        in: where,
        required: where === 'path' || raw.required === true,
        ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
        schema: swaggerSchema(raw),
        binding: { in: where, name, ...collectionBinding(raw) },
      });
    }
  }
  if (!body && Object.keys(formFields).length > 0) {
    const multipart = hasFile || consumes.some((type) => type.startsWith('multipart/form-data'));
    body = {
      contentType: multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded',
      schema: {
        type: 'object',
        properties: formFields,
        ...(formRequired.length > 0 ? { required: formRequired } : {}),
      },
      required: formRequired.length > 0,
    };
  }
  return common(operation, pathItem, { method, path, label, parameters, body });
}

function common(
  operation: Mutable,
  pathItem: Mutable,
  parts: {
    method: RestMethod;
    path: string;
    label: string;
    parameters: NormalizedParameter[];
    body: NormalizedBody | undefined;
  },
): NormalizedOperation {
  const servers =
    asArray(operation.servers).length > 0 ? asArray(operation.servers) : asArray(pathItem.servers);
  return {
    method: parts.method,
    path: parts.path,
    label: parts.label,
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
      : {}),
    ...(servers.length > 0 ? { servers: servers as Mutable[] } : {}),
  };
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * Every operation of a document in document order (callbacks and webhooks are not operations
 * a client calls, so they are not read). An operation that cannot be read is returned in
 * `skipped` with the reason instead of stopping the import.
 */
export function readOperations(
  document: Mutable,
  version: '2.0' | '3.0' | '3.1',
  resolver: RefResolver,
): { operations: NormalizedOperation[]; skipped: SkippedOperation[] } {
  const operations: NormalizedOperation[] = [];
  const skipped: SkippedOperation[] = [];
  const paths = document.paths;
  if (paths === undefined) return { operations, skipped };
  if (typeof paths !== 'object' || paths === null || Array.isArray(paths)) {
    throw new ToolError('CONFIG_INVALID', 'the document\'s "paths" must be an object of path items');
  }
  for (const [path, rawItem] of Object.entries(paths as Mutable)) {
    if (!path.startsWith('/')) {
      if (!path.startsWith('x-')) skipped.push({ label: path, reason: 'path does not start with "/"' });
      continue;
    }
    let pathItem: Mutable;
    try {
      pathItem = resolver.follow<Mutable>(rawItem as Mutable, path);
    } catch (error) {
      skipped.push({ label: path, reason: (error as Error).message });
      continue;
    }
    if (typeof pathItem !== 'object' || pathItem === null) continue;
    for (const lower of METHODS) {
      const operation = pathItem[lower];
      if (typeof operation !== 'object' || operation === null) continue;
      const method = lower.toUpperCase();
      if (method === 'TRACE') {
        skipped.push({ label: `TRACE ${path}`, reason: 'TRACE operations are not offered as tools' });
        continue;
      }
      try {
        operations.push(
          version === '2.0'
            ? readOperation2(resolver, document, path, method as RestMethod, operation as Mutable, pathItem)
            : readOperation3(resolver, path, method as RestMethod, operation as Mutable, pathItem),
        );
      } catch (error) {
        skipped.push({ label: `${method} ${path}`, reason: (error as Error).message });
      }
    }
  }
  return { operations, skipped };
}
