import { ToolError } from '@toolplane/core';
import type { RestMethod } from '../config.js';
import type { Mutable, NormalizedOperation, SkippedOperation } from './operation-model.js';
import { readOperation2 } from './read-operation-2.js';
import { readOperation3 } from './read-operation-3.js';
import type { RefResolver } from './resolver.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * Every operation of a document in document order (callbacks and webhooks are not operations
 * a client calls, so they are not read). An operation that cannot be read is returned in
 * `skipped` with the reason instead of stopping the import.
 */
export function readOperations(
  document: Mutable,
  version: '2.0' | '3.0' | '3.1',
  resolver: RefResolver,
): { operations: NormalizedOperation[]; skipped: SkippedOperation[] } {
  const operations: NormalizedOperation[] = [];
  const skipped: SkippedOperation[] = [];
  const paths = document.paths;
  if (paths === undefined) return { operations, skipped };
  if (typeof paths !== 'object' || paths === null || Array.isArray(paths)) {
    throw new ToolError('CONFIG_INVALID', 'the document\'s "paths" must be an object of path items');
  }
  for (const [path, rawItem] of Object.entries(paths as Mutable)) {
    if (!path.startsWith('/')) {
      if (!path.startsWith('x-')) skipped.push({ label: path, reason: 'path does not start with "/"' });
      continue;
    }
    let pathItem: Mutable;
    try {
      pathItem = resolver.follow<Mutable>(rawItem as Mutable, path);
    } catch (error) {
      skipped.push({ label: path, reason: (error as Error).message });
      continue;
    }
    if (typeof pathItem !== 'object' || pathItem === null) continue;
    for (const lower of METHODS) {
      const operation = pathItem[lower];
      if (typeof operation !== 'object' || operation === null) continue;
      const method = lower.toUpperCase();
      if (method === 'TRACE') {
        skipped.push({ label: `TRACE ${path}`, reason: 'TRACE operations are not offered as tools' });
        continue;
      }
      try {
        operations.push(
          version === '2.0'
            ? readOperation2(resolver, document, path, method as RestMethod, operation as Mutable, pathItem)
            : readOperation3(resolver, path, method as RestMethod, operation as Mutable, pathItem),
        );
      } catch (error) {
        skipped.push({ label: `${method} ${path}`, reason: (error as Error).message });
      }
    }
  }
  return { operations, skipped };
}
