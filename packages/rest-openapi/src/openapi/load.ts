import { createReadStream } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { $RefParser } from '@apidevtools/json-schema-ref-parser';
import { ToolError, errorMessage } from '@toolplane/core';
import { type Dispatcher, request } from 'undici';
import { parse as parseYaml } from 'yaml';
import { countOption, timeoutMillis } from '../limits.js';

/** Where a document comes from: a file path, an http(s) URL, its text, or the parsed object. */
export type OpenApiSource =
  | string
  | URL
  | { readonly text: string; readonly baseUrl?: string }
  | { readonly document: object; readonly baseUrl?: string };

/** Options for fetching a document from a URL. */
export interface LoadOptions {
  /** Longest a fetch may take (default 30 s). */
  readonly fetchTimeoutMs?: number;
  /** Largest document accepted (default 64 MiB). */
  readonly maxDocumentBytes?: number;
  readonly dispatcher?: Dispatcher;
  /** Stops a fetch in progress (`CANCELLED`). */
  readonly signal?: AbortSignal;
}

/** A parsed document and where it came from (for relative servers and external `$ref`s). */
export interface LoadedDocument {
  readonly document: Record<string, unknown>;
  /** File path or URL of the document, when known. */
  readonly location?: string;
  readonly version: '2.0' | '3.0' | '3.1';
}

function invalid(message: string, cause?: unknown): ToolError {
  return new ToolError('CONFIG_INVALID', message, cause === undefined ? {} : { cause });
}

async function fetchText(url: string, options: LoadOptions): Promise<string> {
  const maxBytes = options.maxDocumentBytes ?? 64 * 1024 * 1024;
  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, {
      method: 'GET',
      headers: { accept: 'application/json, application/yaml, text/yaml, */*;q=0.5' },
      signal: options.signal
        ? AbortSignal.any([options.signal, AbortSignal.timeout(options.fetchTimeoutMs ?? 30_000)])
        : AbortSignal.timeout(options.fetchTimeoutMs ?? 30_000),
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    });
  } catch (error) {
    if (options.signal?.aborted) {
      throw new ToolError('CANCELLED', `fetching the OpenAPI document ${url} was cancelled`, {
        cause: error,
      });
    }
    throw new ToolError(
      'PROVIDER_UNAVAILABLE',
      `could not fetch the OpenAPI document ${url}: ${errorMessage(error)}`,
      {
        cause: error,
      },
    );
  }
  if (response.statusCode !== 200) {
    await response.body.dump().catch(() => undefined);
    throw new ToolError(
      'PROVIDER_UNAVAILABLE',
      `fetching the OpenAPI document ${url} answered HTTP ${response.statusCode}`,
    );
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) {
      response.body.destroy();
      throw invalid(`the OpenAPI document ${url} is larger than ${maxBytes} bytes; raise maxDocumentBytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads a document file, no further than `maxDocumentBytes` (a device or a pipe may never end). */
async function readTextFile(path: string, options: LoadOptions): Promise<string> {
  const maxBytes = options.maxDocumentBytes ?? 64 * 1024 * 1024;
  const chunks: Buffer[] = [];
  let total = 0;
  const stream = createReadStream(path);
  try {
    for await (const chunk of stream) {
      total += (chunk as Buffer).length;
      if (total > maxBytes) {
        throw invalid(
          `the OpenAPI document ${path} is larger than ${maxBytes} bytes; raise maxDocumentBytes`,
        );
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (ToolError.isInstance(error)) throw error;
    throw invalid(`cannot read the OpenAPI document ${path}: ${errorMessage(error)}`, error);
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

/** Parses JSON or YAML text; errors say where the text is broken. */
export function parseDocumentText(text: string, where: string): unknown {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(trimmed);
    } catch (error) {
      throw invalid(`${where} is not valid JSON (${errorMessage(error)}); is the file complete?`, error);
    }
  }
  try {
    return parseYaml(text, { maxAliasCount: 10_000 });
  } catch (error) {
    throw invalid(`${where} is not valid YAML or JSON (${errorMessage(error).split('\n')[0]})`, error);
  }
}

function versionOf(document: Record<string, unknown>, where: string): LoadedDocument['version'] {
  if (typeof document.openapi === 'string') {
    if (/^3\.0\.\d+/.test(document.openapi)) return '3.0';
    if (/^3\.1\.\d+/.test(document.openapi)) return '3.1';
    throw invalid(`${where} is OpenAPI ${document.openapi}; supported are 3.0.x, 3.1.x and Swagger 2.0`);
  }
  if (document.swagger === '2.0') return '2.0';
  throw invalid(
    `${where} has neither "openapi: 3.x" nor "swagger: 2.0" at its top level; is it an OpenAPI document?`,
  );
}

function hasExternalRefs(value: unknown, depth = 0): boolean {
  if (depth > 200 || typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some((item) => hasExternalRefs(item, depth + 1));
  for (const [key, member] of Object.entries(value)) {
    if (key === '$ref' && typeof member === 'string' && !member.startsWith('#')) return true;
    if (typeof member === 'object' && hasExternalRefs(member, depth + 1)) return true;
  }
  return false;
}

/**
 * Loads a document from a file, URL, text or object; checks it is OpenAPI 3.0/3.1 or Swagger 2.0;
 * bundles external `$ref`s (other files and URLs) into it with json-schema-ref-parser. Internal
 * references stay as they are and are resolved by the importer as it needs them.
 */
export async function loadDocument(
  source: OpenApiSource,
  options: LoadOptions = {},
): Promise<LoadedDocument> {
  let parsed: unknown;
  let location: string | undefined;
  if (
    typeof source !== 'string' &&
    !(source instanceof URL) &&
    (typeof source !== 'object' || source === null || !('text' in source || 'document' in source))
  ) {
    throw invalid('the OpenAPI source must be a file path, an http(s) URL, { text } or { document }');
  }
  if (options.fetchTimeoutMs !== undefined) timeoutMillis(options.fetchTimeoutMs, 'fetchTimeoutMs');
  if (options.maxDocumentBytes !== undefined) countOption(options.maxDocumentBytes, 'maxDocumentBytes', 1);
  if (typeof source === 'string' || source instanceof URL) {
    const text = String(source);
    if (/^https?:\/\//i.test(text)) {
      location = text;
      parsed = parseDocumentText(await fetchText(text, options), text);
    } else {
      if (source instanceof URL && source.protocol !== 'file:') {
        throw invalid(`the OpenAPI document URL ${text} must be http:, https: or file:`);
      }
      location = resolvePath(source instanceof URL ? fileURLToPath(source) : text);
      parsed = parseDocumentText(await readTextFile(location, options), location);
    }
  } else if ('text' in source) {
    if (typeof source.text !== 'string') throw invalid('{ text } must hold the document as a string');
    location = source.baseUrl;
    parsed = parseDocumentText(source.text, 'the OpenAPI text');
  } else {
    location = source.baseUrl;
    // the importer never mutates; external refs are bundled into a copy below
    parsed = source.document;
  }
  const where = location ?? 'the OpenAPI document';
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalid(`${where} must be a JSON or YAML object`);
  }
  let document = parsed as Record<string, unknown>;
  const version = versionOf(document, where);
  if (hasExternalRefs(document)) {
    const remote = location !== undefined && /^https?:\/\//i.test(location);
    const base =
      location !== undefined && remote
        ? location
        : pathToFileURL(location ?? resolvePath('openapi.json')).href;
    try {
      document = (await new $RefParser().bundle(base, structuredClone(document), {
        resolve: {
          http: { timeout: options.fetchTimeoutMs ?? 30_000 },
          // a document from the network must not pull this machine's files into tool schemas
          ...(remote ? { file: false } : {}),
        },
      })) as Record<string, unknown>;
    } catch (error) {
      const hint = remote
        ? ' (a document loaded from a URL may refer to other URLs, never to local files)'
        : '';
      throw invalid(
        `${where} has an external $ref that cannot be resolved: ${errorMessage(error)}${hint}`,
        error,
      );
    }
  }
  return { document, version, ...(location ? { location } : {}) };
}
