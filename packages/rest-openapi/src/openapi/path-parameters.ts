import { pathPlaceholders } from '../path.js';
import type { NormalizedOperation, NormalizedParameter } from './operation-model.js';

/**
 * Makes an operation's path parameters match its path template. A `{name}` the document does not
 * declare becomes a required string argument (without it the model could never fill the path, and
 * every call would fail); a declared path parameter the path has no place for is dropped (its
 * value would go nowhere). Each change is a note for the import's warnings.
 */
export function reconcilePathParameters(operation: NormalizedOperation): {
  readonly parameters: readonly NormalizedParameter[];
  readonly notes: readonly string[];
} {
  const placeholders = new Set(pathPlaceholders(operation.path.split('#')[0] ?? ''));
  const notes: string[] = [];
  const declared = new Set<string>();
  const parameters: NormalizedParameter[] = [];
  for (const parameter of operation.parameters) {
    if (parameter.in !== 'path') parameters.push(parameter);
    else if (placeholders.has(parameter.name)) {
      declared.add(parameter.name);
      parameters.push(parameter);
    } else notes.push(`path parameter "${parameter.name}" is not in the path; it was left out`);
  }
  for (const name of placeholders) {
    if (declared.has(name)) continue;
    notes.push(`{${name}} in the path is not declared as a parameter; it was added as a required string`);
    parameters.push({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
      binding: { in: 'path', name },
    });
  }
  return { parameters: notes.length > 0 ? parameters : operation.parameters, notes };
}
