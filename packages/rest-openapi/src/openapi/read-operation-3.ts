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
  isJsonMedia,
  mergeParameters,
  pickContentType,
} from './operation-model.js';
import type { RefResolver } from './resolver.js';

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

/** One OpenAPI 3.0/3.1 operation. */
export function readOperation3(
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
    if (typeof requestBody !== 'object' || requestBody === null || Array.isArray(requestBody)) {
      throw new ToolError('CONFIG_INVALID', `${label}: requestBody must be an object with "content"`);
    }
    const content = (requestBody.content ?? {}) as Mutable;
    if (typeof content !== 'object' || content === null || Array.isArray(content)) {
      throw new ToolError(
        'CONFIG_INVALID',
        `${label}: requestBody.content must map media types to { schema }, such as { "application/json": { "schema": {...} } }`,
      );
    }
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
