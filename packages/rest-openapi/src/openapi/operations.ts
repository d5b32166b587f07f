import { ToolError } from '@toolplane/core';
import type { RestMethod } from '../config.js';
import { type Mutable, type NormalizedOperation, type SkippedOperation, kindOf } from './operation-model.js';
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
    if (!isRecord(pathItem)) {
      skipped.push({
        label: path,
        reason: `the path item is ${kindOf(pathItem)}, not an object of operations`,
      });
      continue;
    }
    const sharedParameters = listProblem(pathItem.parameters, "the path item's parameters are");
    for (const lower of METHODS) {
      const operation = pathItem[lower];
      if (operation === undefined) continue;
      const method = lower.toUpperCase();
      // an operation of the wrong shape, or parameters that are no list, would be imported
      // without what the document meant (an array read as an operation without parameters)
      const problem = !isRecord(operation)
        ? `the operation is ${kindOf(operation)}, not an object`
        : (sharedParameters ?? listProblem(operation.parameters, 'its parameters are'));
      if (problem !== undefined) {
        skipped.push({ label: `${method} ${path}`, reason: problem });
        continue;
      }
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

function isRecord(value: unknown): value is Mutable {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why `value`, when present, is no list: `its parameters are an object, not a list`. */
function listProblem(value: unknown, what: string): string | undefined {
  return value === undefined || Array.isArray(value) ? undefined : `${what} ${kindOf(value)}, not a list`;
}
