import { ToolError } from '@toolplane/core';
import { setOwn } from '../records.js';
import type { CollectionFormat, RestMethod, RestParameterBinding } from '../config.js';
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

/** Swagger 2.0's list formats, each sent as written. */
const JOINED_FORMATS: ReadonlySet<string> = new Set(['csv', 'ssv', 'tsv', 'pipes']);

/** The list format of an array parameter (`csv` when it names none, undefined for anything unknown). */
function collectionFormatOf(raw: Mutable): string | undefined {
  if (raw.type !== 'array') return undefined;
  return typeof raw.collectionFormat === 'string' ? raw.collectionFormat : 'csv';
}

/** How an array parameter is sent: `multi` as repeated fields, the others joined as written. */
function collectionBinding(raw: Mutable): Partial<RestParameterBinding> {
  const format = collectionFormatOf(raw);
  if (format === undefined) return {};
  if (raw.in === 'query') {
    if (format === 'multi') return { style: 'form', explode: true };
    if (format === 'ssv') return { style: 'spaceDelimited', explode: false };
    if (format === 'pipes') return { style: 'pipeDelimited', explode: false };
    if (format === 'tsv') return { style: 'form', explode: false, collectionFormat: 'tsv' };
    return { style: 'form', explode: false };
  }
  // path and header lists are simple style, comma-separated, unless written otherwise
  return format !== 'csv' && JOINED_FORMATS.has(format)
    ? { collectionFormat: format as CollectionFormat }
    : {};
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
  const collectionFormats: Record<string, CollectionFormat> = Object.create(null);
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
      const format = collectionFormatOf(raw);
      if (format !== undefined && JOINED_FORMATS.has(format))
        setOwn(collectionFormats, name, format as CollectionFormat);
      setOwn(formFields, name, {
        ...swaggerSchema(raw),
        ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
      });
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
      ...(Object.keys(collectionFormats).length > 0 ? { collectionFormats: { ...collectionFormats } } : {}),
    };
  }
  return common(operation, pathItem, { method, path, label, parameters, body });
}
