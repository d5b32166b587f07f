import { resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { $RefParser } from '@apidevtools/json-schema-ref-parser';
import { ToolError, errorMessage } from '@toolplane/core';
import type { Dispatcher } from 'undici';
import type { LookupFunction } from '@toolplane/address-guard';
import { parse as parseYaml } from 'yaml';
import { countOption, timeoutMillis } from '../limits.js';
import {
  DEFAULT_FETCH_TIMEOUT_MS,
  DEFAULT_MAX_DOCUMENT_BYTES,
  type ReadLimits,
  fetchDocumentText,
  readDocumentFile,
  shownUrl,
} from './fetch-document.js';
import { refReaders } from './ref-resolvers.js';

/** Where a document comes from: a file path, an http(s) URL, its text, or the parsed object. */
export type OpenApiSource =
  | string
  | URL
  | { readonly text: string; readonly baseUrl?: string }
  | { readonly document: object; readonly baseUrl?: string };

/** Options for fetching a document from a URL. */
export interface LoadOptions {
  /** Longest the fetch of one document (headers and body) may take (default 30 s). */
  readonly fetchTimeoutMs?: number;
  /** Largest document accepted, and largest sum of the documents it refers to (default 64 MiB). */
  readonly maxDocumentBytes?: number;
  readonly dispatcher?: Dispatcher;
  /** Stops a fetch in progress (`CANCELLED`). */
  readonly signal?: AbortSignal;
  /**
   * Resolves hosts (default `dns.lookup`): of documents referred to on other origins, which must
   * be public, and of a document fetched from a URL, to tell a public origin from a private one.
   */
  readonly lookup?: LookupFunction;
}

/** A parsed document and where it came from (for relative servers and external `$ref`s). */
export interface LoadedDocument {
  readonly document: Record<string, unknown>;
  /** File path or URL of the document, when known. */
  readonly location?: string;
  readonly version: '2.0' | '3.0' | '3.1';
  /** Whether the document was fetched from its http(s) `location` (not given as text or an object). */
  readonly fetched?: boolean;
}

function invalid(message: string, cause?: unknown): ToolError {
  return new ToolError('CONFIG_INVALID', message, cause === undefined ? {} : { cause });
}

/**
 * Checks the URL a document is fetched from or said to come from: a valid http(s) URL without
 * user info (undici would not send it, and it would end up in tool URLs, config files and
 * messages); the message never repeats the user info.
 */
function checkDocumentUrl(url: unknown, field: string): void {
  if (url === undefined) return;
  if (typeof url !== 'string') throw invalid(`${field} must be a URL string, got ${typeof url}`);
  if (!/^https?:\/\//i.test(url)) return;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw invalid(`${field} ${JSON.stringify(url)} is not a valid URL`, error);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    parsed.username = '';
    parsed.password = '';
    throw invalid(
      `${field} ${shownUrl(parsed.href)} holds user info, which is not sent; download the document and pass { text, baseUrl }, or pass a dispatcher that adds authorization`,
    );
  }
}

/** Whether an error (or one it wraps) is a stack overflow: a document nesting too deeply to walk. */
function stackOverflow(error: unknown): boolean {
  for (let current = error, depth = 0; depth < 5 && current; depth++) {
    if (current instanceof RangeError && /call stack/i.test(current.message)) return true;
    if (/Maximum call stack size exceeded/.test(errorMessage(current))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function tooDeep(where: string, cause: unknown): ToolError {
  return invalid(
    `${where} nests too deeply to be read (deeper than a parser's stack allows); remove or flatten the deep part`,
    cause,
  );
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
    if (stackOverflow(error)) throw tooDeep(where, error);
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
  let fetched = false;
  if (
    typeof source !== 'string' &&
    !(source instanceof URL) &&
    (typeof source !== 'object' || source === null || !('text' in source || 'document' in source))
  ) {
    throw invalid('the OpenAPI source must be a file path, an http(s) URL, { text } or { document }');
  }
  const limits: ReadLimits = {
    timeoutMs:
      options.fetchTimeoutMs === undefined
        ? DEFAULT_FETCH_TIMEOUT_MS
        : timeoutMillis(options.fetchTimeoutMs, 'fetchTimeoutMs'),
    maxBytes:
      options.maxDocumentBytes === undefined
        ? DEFAULT_MAX_DOCUMENT_BYTES
        : countOption(options.maxDocumentBytes, 'maxDocumentBytes', 1),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  };
  if (typeof source === 'object' && !(source instanceof URL)) {
    checkDocumentUrl(source.baseUrl, '{ baseUrl }');
  }
  if (typeof source === 'string' || source instanceof URL) {
    const text = String(source);
    if (/^https?:\/\//i.test(text)) {
      checkDocumentUrl(text, 'the OpenAPI document URL');
      location = text;
      fetched = true;
      parsed = parseDocumentText(await fetchDocumentText(text, limits), shownUrl(text));
    } else {
      if (source instanceof URL && source.protocol !== 'file:') {
        throw invalid(`the OpenAPI document URL ${text} must be http:, https: or file:`);
      }
      location = resolvePath(source instanceof URL ? fileURLToPath(source) : text);
      parsed = parseDocumentText(await readDocumentFile(location, limits), location);
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
  const where = location === undefined ? 'the OpenAPI document' : shownUrl(location);
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
    const readers = refReaders(base, remote, limits, options.lookup);
    try {
      document = (await new $RefParser().bundle(base, structuredClone(document), {
        // every document it refers to is read with the main document's limits; a document
        // from the network must not pull this machine's files into tool schemas
        resolve: { http: readers.http, file: readers.file },
        // and parsed like it: json-schema-ref-parser's YAML parser keeps every alias, so a few
        // hundred bytes could expand into a schema of gigabytes
        parse: {
          yaml: {
            order: 200,
            allowEmpty: true,
            canParse: ['.yaml', '.yml', '.json'],
            parse: (file: { url: string; data: unknown }) =>
              parseDocumentText(
                Buffer.isBuffer(file.data) ? file.data.toString('utf8') : String(file.data),
                file.url,
              ),
          },
        },
      })) as Record<string, unknown>;
    } catch (error) {
      if (stackOverflow(error)) throw tooDeep(where, error);
      const failure = readers.failure();
      if (failure?.code === 'CANCELLED') throw failure;
      if (failure) {
        // the code of what went wrong (too large, timed out, unreachable), saying which document
        throw new ToolError(
          failure.code,
          `${where} has an external $ref that cannot be resolved: ${failure.message}`,
          { cause: failure, ...(failure.details ? { details: failure.details } : {}) },
        );
      }
      // a file reference from a network document finds no reader (files are off for it)
      const hint =
        remote && /Unable to resolve|Could not find resolver/.test(errorMessage(error))
          ? ' (a document loaded from a URL may refer to other URLs, never to local files)'
          : '';
      throw invalid(
        `${where} has an external $ref that cannot be resolved: ${errorMessage(error)}${hint}`,
        error,
      );
    }
  }
  return { document, version, ...(location ? { location } : {}), ...(fetched ? { fetched } : {}) };
}
