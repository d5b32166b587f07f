import { ToolError } from '@toolplane/core';
import type { GrepEngineOptions } from './grep/options.js';
import type { ToolLimits } from './tools/deps.js';
import { createAddressPolicy } from '@toolplane/address-guard';
import type { WebFetchOptions } from './web/options.js';
import type { Mount } from './workspace/mounts.js';

/** The options {@link checkProviderOptions} looks at (a subset of the provider's). */
export interface CheckedOptions {
  readonly tools?: readonly string[];
  readonly limits?: Partial<ToolLimits>;
  readonly indexAhead?: false | { readonly minBytes?: number };
  readonly mounts?: readonly Mount[];
  readonly protectedPaths?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly webFetch?: WebFetchOptions;
  readonly grep?: GrepEngineOptions;
}

function invalid(message: string): ToolError {
  return new ToolError('CONFIG_INVALID', `createBuiltinProvider: ${message}`);
}

function checkCount(value: unknown, name: string, minimum: number): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
    throw invalid(`${name} must be a whole number of at least ${minimum}, got ${String(value)}`);
  }
}

/**
 * Refuses provider options that would make tools fail on every call or behave silently
 * differently from what was asked (a NaN limit, a mount at the workspace root, an unknown
 * tool, a range that is not CIDR), with `CONFIG_INVALID` at construction.
 */
export function checkProviderOptions(options: CheckedOptions, toolNames: readonly string[]): void {
  for (const name of options.tools ?? []) {
    if (!toolNames.includes(name)) throw invalid(`unknown tool "${name}"; pick from ${toolNames.join(', ')}`);
  }
  for (const [name, value] of Object.entries(options.limits ?? {})) checkCount(value, `limits.${name}`, 1);
  if (options.indexAhead !== undefined && options.indexAhead !== false)
    checkCount(options.indexAhead.minBytes, 'indexAhead.minBytes', 0);
  for (const mount of options.mounts ?? []) {
    const path = mount?.path;
    const parts =
      typeof path === 'string' ? path.split('/').filter((part) => part !== '' && part !== '.') : [];
    if (typeof path !== 'string' || path.startsWith('/') || parts.length === 0 || parts.includes('..')) {
      throw invalid(
        `mount path ${JSON.stringify(path)} must name a part of the workspace, relative to it ("memory", "docs/notes")`,
      );
    }
    if (typeof mount.fileSystem?.readFile !== 'function')
      throw invalid(`mount "${path}" has no fileSystem; pass a core FileSystem`);
  }
  for (const pattern of options.protectedPaths ?? []) {
    if (typeof pattern !== 'string' || pattern === '')
      throw invalid(`protectedPaths holds ${JSON.stringify(pattern)}; every entry must be a non-empty glob`);
  }
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (typeof value !== 'string' || value.includes('\0') || name === '' || /[=\0]/.test(name))
      throw invalid(
        `env.${name} cannot be passed to a command; use a name without "=" and a string value without null bytes`,
      );
  }
  const memory = options.grep?.ripgrepMemoryBytes;
  if (memory !== false) checkCount(memory, 'grep.ripgrepMemoryBytes', 64 * 1024 * 1024);
  const web = options.webFetch ?? {};
  checkCount(web.maxBytes, 'webFetch.maxBytes', 1);
  checkCount(web.maxChars, 'webFetch.maxChars', 1);
  checkCount(web.timeoutMs, 'webFetch.timeoutMs', 1);
  checkCount(web.maxRedirects, 'webFetch.maxRedirects', 0);
  try {
    createAddressPolicy({ allowedRanges: web.allowedRanges ?? [], label: 'webFetch.allowedRanges' });
  } catch (error) {
    throw invalid((error as Error).message);
  }
}
