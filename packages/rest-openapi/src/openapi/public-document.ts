import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns';
import { type LookupFunction, isPublicAddress } from '@toolplane/address-guard';
import type { LoadedDocument } from './load.js';
import { privateHost } from './servers.js';

/** Longest wait for the lookup that tells whether a fetched document's host is public. */
const LOOKUP_WAIT_MS = 5_000;

/** The addresses `hostname` resolves to, or undefined when it does not resolve (in time). */
function resolveAll(hostname: string, lookup: LookupFunction): Promise<LookupAddress[] | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), LOOKUP_WAIT_MS);
    lookup(hostname, { all: true }, (error, addresses) => {
      clearTimeout(timer);
      resolve(error ? undefined : (addresses as LookupAddress[]));
    });
  });
}

/**
 * The origin of a document from a public origin, or undefined for any other (a file, text or
 * object without an http(s) URL, or a URL on a local or private address). A local or private
 * address is judged by name and literal address and, for a document fetched from its URL, by
 * what the host resolves to: a name of an internal network (`docs.corp.example` at `10.0.0.5`)
 * is local. A name that does not resolve here (as behind a proxy) counts as public.
 */
export async function publicDocumentOrigin(
  loaded: LoadedDocument,
  lookup: LookupFunction = dnsLookup,
): Promise<string | undefined> {
  const { location } = loaded;
  if (location === undefined || !/^https?:\/\//i.test(location)) return undefined;
  const url = new URL(location);
  if (privateHost(url)) return undefined;
  if (loaded.fetched) {
    const addresses = await resolveAll(url.hostname.replace(/^\[|\]$/g, ''), lookup);
    if (addresses?.some((entry) => !isPublicAddress(entry.address))) return undefined;
  }
  return url.origin;
}
