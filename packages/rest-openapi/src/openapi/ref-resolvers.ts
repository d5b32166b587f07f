import { type LookupAddress, lookup as dnsLookup } from 'node:dns';
import { fileURLToPath } from 'node:url';
import { isUnsafeUrl } from '@apidevtools/json-schema-ref-parser';
import { ToolError, errorMessage } from '@toolplane/core';
import { Agent } from 'undici';
import { type LookupFunction, isPublicAddress } from '@toolplane/address-guard';
import { type ReadLimits, fetchDocumentText, readDocumentFile, shownUrl } from './fetch-document.js';

/** A resolver plugin of json-schema-ref-parser (`resolve.http`, `resolve.file`). */
interface Resolver {
  readonly order: number;
  canRead(file: { url: string }): boolean;
  read(file: { url: string }): Promise<string>;
}

/** Resolvers for the documents a document refers to, and the first failure they met. */
export interface RefReaders {
  readonly http: Resolver;
  /** `false` for a document from the network: it may not read this machine's files. */
  readonly file: Resolver | false;
  /** The first `ToolError` a read threw (json-schema-ref-parser wraps what it catches). */
  failure(): ToolError | undefined;
}

/** Every address `hostname` resolves to, in the resolver's order. */
function resolveAll(hostname: string, lookup: LookupFunction): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    lookup(hostname, { all: true, verbatim: true } as never, (error, addresses) =>
      error ? reject(error) : resolve(addresses as LookupAddress[]),
    ),
  );
}

/**
 * A one-request agent that connects only to the addresses `hostname` resolved to now, all of
 * them public; refuses (`CONFIG_INVALID`) a host that is local or private, by name or by any
 * address. Pinning the checked addresses leaves no room for a second, different DNS answer.
 */
async function publicAgent(url: URL, document: string, lookup: LookupFunction): Promise<Agent> {
  const refuse = (why: string) =>
    new ToolError(
      'CONFIG_INVALID',
      `${document} refers to ${url.href}, ${why}; only the document's own origin may be a local or private address (load the document from there, or bundle the reference into it)`,
      { details: { document: url.href } },
    );
  if (isUnsafeUrl(url.href)) throw refuse('a local or private address');
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = await resolveAll(hostname, lookup);
  } catch (error) {
    throw new ToolError(
      'PROVIDER_UNAVAILABLE',
      `could not fetch the OpenAPI document ${url.href}: ${errorMessage(error)}`,
      { cause: error, details: { document: url.href } },
    );
  }
  // public unicast only: loopback, private, link-local, and IPv6 forms carrying them (mapped, NAT64, 6to4) are not
  if (addresses.length === 0 || addresses.some((item) => !isPublicAddress(item.address)))
    throw refuse('whose host resolves to a local or private address');
  return new Agent({
    connections: 1,
    connect: {
      lookup: (_name, options, callback) => {
        const wanted = options.family === 6 || options.family === 4 ? options.family : 0;
        const fitting = addresses.filter((item) => wanted === 0 || item.family === wanted);
        const first = fitting[0];
        if (!first) {
          callback(
            Object.assign(new Error(`no checked address of ${hostname}`), { code: 'ENOTFOUND' }),
            '',
            0,
          );
        } else if (options.all) callback(null, fitting as never, 0);
        else callback(null, first.address, first.family);
      },
    },
  });
}

/**
 * Readers for json-schema-ref-parser that put the main document's limits on every document it
 * refers to: each at most `maxBytes` and `timeoutMs`, all of them together at most `maxBytes`
 * and `timeoutMs` more, and stopped by `signal`. References to the main document's own origin go out like it
 * (through `dispatcher`); other URLs only to public addresses. Files are read only for a
 * document that did not come from the network.
 */
export function refReaders(
  documentUrl: string,
  remote: boolean,
  limits: ReadLimits,
  lookup: LookupFunction = dnsLookup,
): RefReaders {
  let failure: ToolError | undefined;
  let total = 0;
  const origin = remote ? new URL(documentUrl).origin : undefined;
  const shown = shownUrl(documentUrl);
  // one deadline for them all: a chain of documents each just within the timeout never ends
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const fetchLimits: ReadLimits = {
    ...limits,
    signal: limits.signal ? AbortSignal.any([limits.signal, deadline]) : deadline,
  };
  const counted = async (where: string, read: () => Promise<string>): Promise<string> => {
    try {
      const text = await read().catch((error: unknown) => {
        if (!deadline.aborted || limits.signal?.aborted) throw error;
        throw new ToolError(
          'TIMEOUT',
          `the documents ${shown} refers to took longer than ${limits.timeoutMs} ms together (the last one asked for was ${where}); raise fetchTimeoutMs`,
          { cause: error, details: { document: where, timeoutMs: limits.timeoutMs } },
        );
      });
      total += Buffer.byteLength(text);
      if (total > limits.maxBytes) {
        throw new ToolError(
          'CONFIG_INVALID',
          `the documents ${shown} refers to are larger than ${limits.maxBytes} bytes together (the last one read was ${where}); raise maxDocumentBytes`,
          { details: { document: where, maxBytes: limits.maxBytes } },
        );
      }
      return text;
    } catch (error) {
      if (ToolError.isInstance(error)) failure ??= error;
      throw error;
    }
  };
  return {
    http: {
      order: 200,
      canRead: (file) => /^https?:\/\//i.test(file.url),
      read: (file) =>
        counted(file.url, async () => {
          const url = new URL(file.url);
          if (url.origin === origin) return fetchDocumentText(url.href, fetchLimits);
          const agent = await publicAgent(url, shown, lookup);
          try {
            return await fetchDocumentText(url.href, { ...fetchLimits, dispatcher: agent });
          } finally {
            await agent.destroy().catch(() => undefined);
          }
        }),
    },
    file: remote
      ? false
      : {
          order: 100,
          canRead: (file) => !/^[a-z][a-z0-9+.-]+:/i.test(file.url) || /^file:/i.test(file.url),
          read: (file) =>
            counted(file.url, () =>
              readDocumentFile(
                /^file:/i.test(file.url) ? fileURLToPath(file.url) : decodeURI(file.url),
                limits,
              ),
            ),
        },
    failure: () => failure,
  };
}
