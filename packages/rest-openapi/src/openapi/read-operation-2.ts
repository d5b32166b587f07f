import { ToolError } from '@toolplane/core';
import type { RestMethod, RestParameterBinding } from '../config.js';
import {
  IGNORED_HEADERS,
  type Mutable,
  type NormalizedBody,
  type NormalizedOperation,
  type NormalizedParameter,
  asArray,
  common,
  mergeParameters,
  pickContentType,
} from './operation-model.js';
import type { RefResolver } from './resolver.js';

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

/**
 * What a Swagger 2.0 array parameter's `collectionFormat` becomes when this client cannot send it
 * as written, said for a warning: `tsv` (which OpenAPI 3 dropped) goes comma-separated, path and
 * header arrays only as `csv`, form fields only as `multi` (repeated fields). Undefined when it is
 * sent as written.
 */
function collectionNote(raw: Mutable): string | undefined {
  if (raw.type !== 'array') return undefined;
  const format = typeof raw.collectionFormat === 'string' ? raw.collectionFormat : 'csv';
  const what = `${String(raw.in)} parameter ${String(raw.name)}: collectionFormat ${format}`;
  if (raw.in === 'formData')
    return format === 'multi'
      ? undefined
      : `${what} is sent as repeated fields (${String(raw.name)}=a&${String(raw.name)}=b), the only way form bodies send arrays here`;
  if (raw.in === 'query')
    return format === 'tsv'
      ? `${what} has no OpenAPI 3 style and is sent as form style, comma-separated (a,b)`
      : undefined;
  return format === 'csv'
    ? undefined
    : `${what} is sent as simple style, comma-separated (a,b), the only style for ${String(raw.in)} arrays here`;
}

/** One Swagger 2.0 operation: body and formData parameters become the body, collectionFormat a style. */
export function readOperation2(
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
  const notes: string[] = [];
  for (const raw of raws) {
    const name = raw.name;
    if (typeof name !== 'string') throw new ToolError('CONFIG_INVALID', `${label}: a parameter has no name`);
    const note = collectionNote(raw);
    const ignored = raw.in === 'header' && IGNORED_HEADERS.has(name.toLowerCase());
    if (note !== undefined && !ignored) notes.push(note);
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
  return common(operation, pathItem, { method, path, label, parameters, body, notes });
}
