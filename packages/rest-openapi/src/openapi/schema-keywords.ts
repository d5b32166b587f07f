type Mutable = Record<string, unknown>;

function isUnicodeRegExp(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/**
 * Rewrites keywords that differ between OpenAPI dialects and draft-07, in place on `out` (the
 * converted copy of `source`): read-only names leave `required`, `type: file`, boolean
 * exclusive bounds, `example`, `prefixItems`, duplicate enum values, patterns that do not
 * compile as Unicode regular expressions, and `nullable`.
 */
export function normalizeKeywords(source: Mutable, out: Mutable): void {
  // read-only properties were dropped: drop them from `required` too
  if (Array.isArray(out.required) && typeof source.properties === 'object' && source.properties !== null) {
    const kept = out.properties as Mutable | undefined;
    out.required = (out.required as unknown[]).filter(
      (name) =>
        typeof name !== 'string' ||
        !Object.hasOwn(source.properties as Mutable, name) ||
        (kept !== undefined && Object.hasOwn(kept, name)),
    );
    if ((out.required as unknown[]).length === 0) delete out.required;
  } else if (Array.isArray(out.required) && out.required.length === 0) delete out.required;
  if (out.type === 'file') {
    out.type = 'string';
    out.format = 'binary';
  }
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[flag] === 'boolean') {
      if (out[flag] === true && typeof out[bound] === 'number') {
        out[flag] = out[bound];
        delete out[bound];
      } else delete out[flag];
    }
  }
  if (source.example !== undefined && out.examples === undefined) out.examples = [source.example];
  if (out.examples !== undefined && !Array.isArray(out.examples)) {
    // OpenAPI media-type style `examples` maps are not JSON Schema
    delete out.examples;
  }
  if (Array.isArray(out.prefixItems)) {
    const tuple = out.prefixItems;
    delete out.prefixItems;
    if (out.items !== undefined && !Array.isArray(out.items)) out.additionalItems = out.items;
    out.items = tuple;
  }
  if (Array.isArray(out.enum)) {
    const seen = new Set<string>();
    out.enum = out.enum.filter((item) => {
      const key = JSON.stringify(item);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  if (typeof out.pattern === 'string' && !isUnicodeRegExp(out.pattern)) {
    // validators compile patterns with the `u` flag; a pattern they cannot compile is dropped
    delete out.pattern;
  }
  if (source.nullable === true || source['x-nullable'] === true) makeNullable(out);
}

function makeNullable(out: Mutable): void {
  if (typeof out.type === 'string') out.type = [out.type, 'null'];
  else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...out.type, 'null'];
  else if (out.type === undefined) {
    const inner: Mutable = { ...out };
    for (const key of Object.keys(out)) delete out[key];
    if (typeof inner.description === 'string') {
      out.description = inner.description;
      delete inner.description;
    }
    out.anyOf = [inner, { type: 'null' }];
    return;
  }
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
}
