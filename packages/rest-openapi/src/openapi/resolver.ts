import { ToolError } from '@toolplane/core';

/** Resolves `#/json/pointer` references inside one document, lazily. */
export interface RefResolver {
  /** The value a local reference points to; throws `CONFIG_INVALID` when it does not exist. */
  resolve(ref: string): unknown;
  /** Follows `$ref` chains on an object (parameters, request bodies, path items). */
  follow<T>(value: T | { $ref: string }, where: string): T;
}

function decodeSegment(segment: string): string {
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // keep it as written
  }
  return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** A resolver for local references of `document`. */
export function createRefResolver(document: Record<string, unknown>): RefResolver {
  const cache = new Map<string, unknown>();
  const resolve = (ref: string): unknown => {
    if (cache.has(ref)) return cache.get(ref);
    if (!ref.startsWith('#')) {
      throw new ToolError(
        'CONFIG_INVALID',
        `$ref ${JSON.stringify(ref)} points outside the document and was not bundled`,
        {
          details: { ref },
        },
      );
    }
    let current: unknown = document;
    const pointer = ref.slice(1);
    if (pointer !== '' && !pointer.startsWith('/')) {
      throw new ToolError(
        'CONFIG_INVALID',
        `$ref ${JSON.stringify(ref)} is not a JSON pointer (#/components/...)`,
        {
          details: { ref },
        },
      );
    }
    for (const raw of pointer === '' ? [] : pointer.slice(1).split('/')) {
      const segment = decodeSegment(raw);
      if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) {
        throw new ToolError(
          'CONFIG_INVALID',
          `$ref ${JSON.stringify(ref)} does not resolve: nothing at "${segment}"`,
          {
            details: { ref },
          },
        );
      }
      current = (current as Record<string, unknown>)[segment];
    }
    cache.set(ref, current);
    return current;
  };
  return {
    resolve,
    follow<T>(value: T | { $ref: string }, where: string): T {
      let current: unknown = value;
      // a chain may be as long as the document makes it; only a loop has no end
      const seen = new Set<string>();
      while (typeof current === 'object' && current !== null) {
        const ref = (current as { $ref?: unknown }).$ref;
        if (typeof ref !== 'string') break;
        if (seen.has(ref))
          throw new ToolError(
            'CONFIG_INVALID',
            `${where}: $ref ${JSON.stringify(ref.slice(0, 200))} is part of a reference loop (references only, naming nothing)`,
          );
        seen.add(ref);
        current = resolve(ref);
      }
      return current as T;
    },
  };
}
