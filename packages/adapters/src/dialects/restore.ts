import { ToolError, compileSchema } from '@toolplane/core';
import type { RestorePlan } from './types.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty, so a key named __proto__ stays data and never sets the prototype
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Maps a value in a dialect's shape back to the original schema's shape: a strict-mode null
 * for an optional property becomes absent, JSON text is parsed, enum strings become the
 * original values, a wrapped root is unwrapped. Throws `INVALID_ARGUMENTS` for JSON text that
 * does not parse.
 */
export function restoreValue(value: unknown, plan: RestorePlan, path = 'args'): unknown {
  switch (plan.kind) {
    case 'same':
      return value;
    case 'json-text': {
      if (typeof value !== 'string') return value;
      try {
        return JSON.parse(value);
      } catch {
        throw new ToolError(
          'INVALID_ARGUMENTS',
          `${path} must be JSON text (this part of the schema is sent as a JSON-encoded string); it does not parse`,
        );
      }
    }
    case 'enum':
      return typeof value === 'string' && plan.values.has(value) ? plan.values.get(value) : value;
    case 'array':
      return Array.isArray(value)
        ? value.map((item, i) => restoreValue(item, plan.items, `${path}[${i}]`))
        : value;
    case 'wrapped':
      return isRecord(value) && Object.hasOwn(value, plan.key)
        ? restoreValue(value[plan.key], plan.inner, path)
        : value;
    case 'object': {
      if (!isRecord(value)) return value;
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        const property = Object.hasOwn(plan.properties, key) ? plan.properties[key] : undefined;
        if (!property) define(out, key, item);
        else if (item === null && property.nullMeansAbsent) continue;
        else define(out, key, restoreValue(item, property.plan, `${path}.${key}`));
      }
      return out;
    }
    case 'union': {
      let first: unknown;
      for (const [i, option] of plan.options.entries()) {
        let restored: unknown;
        try {
          restored = restoreValue(value, option.plan, path);
        } catch {
          continue;
        }
        if (i === 0) first = restored;
        try {
          if (compileSchema(option.original).validate(restored).valid) return restored;
        } catch {
          // a branch that does not compile alone cannot pick; the next one may
        }
      }
      return first ?? value;
    }
  }
}
