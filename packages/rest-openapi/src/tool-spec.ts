import { createHash } from 'node:crypto';
import { type ToolAnnotations, type ToolSpec, ToolError, stableStringify } from '@toolplane/core';
import type { RestToolConfig } from './config.js';
import {
  CLIENT_HEADERS,
  HEADER_TOKEN,
  authProblem,
  clientHeaderMessage,
  configuredHeaderClash,
} from './check-auth.js';
import { parseDuration } from './duration.js';
import { hasStrayBrace } from './path.js';
import { schemaShapeProblem } from './schema-shape.js';
import { configuredPath, strayBraceMessage } from './url-template.js';
import { MAX_NESTING, countOption, nestsDeeperThan, timeoutMillis } from './limits.js';

const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);
const METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

/** Hex SHA-256 of the definition (original remote name, description, schemas), as the policy package pins it. */
export function definitionHash(remoteName: string, config: RestToolConfig): string {
  return createHash('sha256')
    .update(
      stableStringify({
        name: remoteName,
        description: config.description,
        inputSchema: config.parametersSchema,
        outputSchema: undefined,
      }),
    )
    .digest('hex');
}

/** Checks the parts of a tool config that can be checked without calling it. */
export function checkToolConfig(name: string, config: RestToolConfig): void {
  const problem = (text: string): ToolError =>
    new ToolError('CONFIG_INVALID', `REST tool "${name}": ${text}`);
  if (!name) throw problem('tool names must not be empty');
  if (typeof config !== 'object' || config === null) throw problem('the config must be an object');
  if (typeof config.description !== 'string') throw problem('description must be a string');
  if (!METHODS.has(config.method))
    throw problem(`method must be one of ${[...METHODS].join(', ')}, got ${JSON.stringify(config.method)}`);
  if (typeof config.url !== 'string' || !/^(https?:\/\/|\$\{)/i.test(config.url)) {
    throw problem(`url must start with http://, https:// or a \${VAR}, got ${JSON.stringify(config.url)}`);
  }
  const path = configuredPath(config.url);
  if (hasStrayBrace(path)) throw new ToolError('CONFIG_INVALID', strayBraceMessage(name, path));
  const schema = config.parametersSchema as { type?: unknown } | undefined;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw problem(
      'parametersSchema must be a JSON Schema object such as { "type": "object", "properties": {...} }',
    );
  }
  if (schema.type !== undefined && schema.type !== 'object')
    throw problem('parametersSchema must describe an object');
  if (nestsDeeperThan(schema, MAX_NESTING))
    throw problem(`parametersSchema nests deeper than ${MAX_NESTING} levels or refers to itself; flatten it`);
  const shape = schemaShapeProblem(schema as Record<string, unknown>);
  // every call would fail CONFIG_INVALID when the schema is compiled: said now, naming the problem
  if (shape !== undefined)
    throw problem(`parametersSchema is not a valid JSON Schema: ${shape}; fix the schema`);
  if (nestsDeeperThan(config.bodyTemplate, MAX_NESTING))
    throw problem(`bodyTemplate nests deeper than ${MAX_NESTING} levels or refers to itself; flatten it`);
  if (config.streaming) {
    if (config.streaming.mode !== 'json-stream') throw problem('streaming.mode must be "json-stream"');
    if (!config.streaming.discriminatorField || !config.streaming.doneValue) {
      throw problem('streaming needs discriminatorField and doneValue');
    }
  }
  const headerSetBy = new Map<string, string>();
  const setsHeader = (header: string, by: string): void => {
    const earlier = headerSetBy.get(header.toLowerCase());
    // one of the two would be dropped silently
    if (earlier !== undefined)
      throw problem(`${earlier} and ${by} both set the ${header.toLowerCase()} header; keep one of them`);
    headerSetBy.set(header.toLowerCase(), by);
  };
  for (const [header, value] of Object.entries(config.headers ?? {})) {
    if (!HEADER_TOKEN.test(header))
      throw problem(`header name ${JSON.stringify(header)} is not a valid HTTP token`);
    if (typeof value !== 'string') throw problem(`header ${header} must be a string`);
    // a fixed Host routes to a virtual host (the operator's choice); an argument never may
    if (CLIENT_HEADERS.has(header.toLowerCase()) && (header.toLowerCase() !== 'host' || value.includes('{{')))
      throw problem(clientHeaderMessage(header, `headers.${header}`));
    setsHeader(header, `headers.${header}`);
  }
  if (config.publicAddressesOnly !== undefined && typeof config.publicAddressesOnly !== 'boolean')
    throw problem('publicAddressesOnly must be true or false');
  if (config.cache !== undefined) parseDuration(config.cache, `REST tool "${name}": cache`);
  const field = (key: string): string => `REST tool "${name}": ${key}`;
  if (config.timeoutMs !== undefined) timeoutMillis(config.timeoutMs, field('timeoutMs'));
  if (config.streaming?.timeoutMs !== undefined)
    timeoutMillis(config.streaming.timeoutMs, field('streaming.timeoutMs'));
  if (config.streaming?.maxBytes !== undefined)
    countOption(config.streaming.maxBytes, field('streaming.maxBytes'));
  if (config.maxResponseBytes !== undefined) countOption(config.maxResponseBytes, field('maxResponseBytes'));
  if (config.maxRedirects !== undefined) countOption(config.maxRedirects, field('maxRedirects'));
  for (const [argument, binding] of Object.entries(config.parameters ?? {})) {
    if (!BINDING_PLACES.has((binding as { in?: unknown } | null)?.in as string)) {
      throw problem(`parameters.${argument}.in must be one of path, query, header, cookie`);
    }
    const format = (binding as { collectionFormat?: unknown }).collectionFormat;
    if (format !== undefined && !COLLECTION_FORMATS.has(format as string))
      throw problem(`parameters.${argument}.collectionFormat must be one of csv, ssv, tsv, pipes`);
    if (binding.in === 'header' && !HEADER_TOKEN.test(binding.name ?? argument))
      throw problem(
        `parameters.${argument}: ${JSON.stringify(binding.name ?? argument)} is not a valid HTTP header name`,
      );
    if (binding.in === 'header' && CLIENT_HEADERS.has((binding.name ?? argument).toLowerCase()))
      throw problem(clientHeaderMessage(binding.name ?? argument, `parameters.${argument}`));
    if (binding.in === 'header') setsHeader(binding.name ?? argument, `parameters.${argument}`);
  }
  const contentType = (config.body as { contentType?: unknown } | undefined)?.contentType;
  if (config.body !== undefined && (typeof contentType !== 'string' || !HEADER_VALUE.test(contentType)))
    throw problem(
      `body.contentType ${JSON.stringify(String(contentType).slice(0, 100))} cannot be sent as a content-type header (it must be a media type such as application/json, without control characters or characters beyond U+00FF)`,
    );
  const files = filesProblem(config.body?.files, String(contentType));
  if (files) throw problem(files);
  const formats: unknown = config.body?.collectionFormats;
  if (
    formats !== undefined &&
    (typeof formats !== 'object' ||
      formats === null ||
      Array.isArray(formats) ||
      Object.values(formats).some((format) => !COLLECTION_FORMATS.has(format as string)))
  )
    throw problem('body.collectionFormats must map body fields to one of csv, ssv, tsv, pipes');
  const auth = authProblem(config.auth) ?? configuredHeaderClash(config.headers, config.auth);
  if (auth) throw problem(auth);
}

/** What is wrong with `body.files`, if anything: an object of `{ filenameField?, contentType? }`, multipart only. */
function filesProblem(files: unknown, contentType: string): string | undefined {
  if (files === undefined) return undefined;
  const shape =
    'body.files must map field names to { filenameField?: string, contentType?: string, encoding?: "base64" }, like { file: { filenameField: "filename" } }';
  if (typeof files !== 'object' || files === null || Array.isArray(files)) return shape;
  if (!contentType.toLowerCase().trim().startsWith('multipart/form-data'))
    return `body.files applies to multipart/form-data bodies only, and body.contentType is ${JSON.stringify(contentType.slice(0, 100))}`;
  for (const [field, file] of Object.entries(files)) {
    if (typeof file !== 'object' || file === null || Array.isArray(file)) return `${shape}; ${field} is not`;
    const { filenameField, contentType: type } = file as Record<string, unknown>;
    if (filenameField !== undefined && typeof filenameField !== 'string')
      return `body.files.${field}.filenameField must be the name of a body field`;
    if (type !== undefined && (typeof type !== 'string' || !HEADER_VALUE.test(type)))
      return `body.files.${field}.contentType must be a media type such as image/png`;
    const { encoding } = file as Record<string, unknown>;
    if (encoding !== undefined && encoding !== 'base64')
      return `body.files.${field}.encoding must be "base64" (the field's text is the base64 of the file's bytes) or left out`;
  }
  return undefined;
}

/** Swagger 2.0's list formats that join a list into one value. */
const COLLECTION_FORMATS: ReadonlySet<string> = new Set(['csv', 'ssv', 'tsv', 'pipes']);

/** What HTTP (and undici) carry in a header value: tab, visible ASCII, space, bytes 0x80-0xFF. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]+$/;

const BINDING_PLACES: ReadonlySet<string> = new Set(['path', 'query', 'header', 'cookie']);

function annotationsFor(config: RestToolConfig): ToolAnnotations {
  const read = READ_METHODS.has(config.method);
  return {
    readOnlyHint: read,
    destructiveHint: config.method === 'DELETE',
    idempotentHint: read || config.method === 'PUT' || config.method === 'DELETE',
    openWorldHint: true,
    ...config.annotations,
  };
}

/** The spec a model sees for one REST tool, with the REST groups and the definition hash. */
export function toolSpecFor(
  namespace: string,
  name: string,
  config: RestToolConfig,
  timeoutMs: number,
): ToolSpec {
  const remoteName = config.operationId ?? name;
  return {
    name,
    description: config.description,
    inputSchema: config.parametersSchema,
    annotations: annotationsFor(config),
    sideEffect: config.sideEffect ?? (READ_METHODS.has(config.method) ? 'read' : 'mutating'),
    groups: ['rest', `rest:${namespace}`],
    timeoutMs,
    ...(config.queue ? { queue: config.queue } : {}),
    ...(config.cache !== undefined ? { cacheTtlMs: parseDuration(config.cache, 'cache') } : {}),
    meta: {
      remoteName,
      method: config.method,
      url: config.url,
      definitionHash: definitionHash(remoteName, config),
      ...(config.tags ? { tags: config.tags } : {}),
    },
  };
}
