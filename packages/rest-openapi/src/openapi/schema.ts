import { type JsonSchema, ToolError } from '@toolplane/core';
import type { RefResolver } from './resolver.js';
import { nestsDeeperThan } from '../limits.js';
import { setOwn } from '../records.js';
import { ReferenceGraph } from './reference-graph.js';
import { normalizeKeywords } from './schema-keywords.js';
import { trimText } from './text.js';

/** Which flavour of schema a document uses. */
export type SchemaDialect = '2.0' | '3.0' | '3.1';

type Mutable = Record<string, unknown>;

interface Converted {
  readonly schema: JsonSchema;
  /** Recursive references this schema points to (they live in `definitions`). */
  readonly needs: ReadonlySet<string>;
}

const DROPPED = new Set([
  'xml',
  'externalDocs',
  'discriminator',
  'nullable',
  'x-nullable',
  '$schema',
  '$id',
  '$anchor',
  '$dynamicAnchor',
  '$dynamicRef',
  '$comment',
  '$defs',
  'definitions',
  'example',
  'unevaluatedProperties',
  'unevaluatedItems',
  'readOnly',
  'writeOnly',
  'collectionFormat',
  'contentSchema',
]);
/**
 * The most schema levels (a property's schema inside its object's, a member inside `allOf`, a
 * referred schema inside the referring one) converted; deeper is `CONFIG_INVALID`, and the tool's
 * schema may then still nest at most 256 levels of JSON.
 */
export const MAX_SCHEMA_LEVELS = 128;
/** The deepest an `example`, `examples` or `default` value may nest before it is left out. */
export const MAX_ANNOTATION_NESTING = 64;
/** The most values an `enum` may list in an input schema; a longer one is left out, and said so. */
export const MAX_ENUM_VALUES = 256;
const SCHEMA_MAPS = ['properties', 'patternProperties'] as const;
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const SCHEMA_SINGLES = [
  'additionalProperties',
  'additionalItems',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
] as const;

/**
 * Turns OpenAPI schemas (Swagger 2.0, OpenAPI 3.0 and 3.1) into the draft-07 JSON Schema the
 * rest of toolplane uses: `nullable` becomes a `null` type, boolean `exclusiveMinimum` becomes
 * numeric, `example` becomes `examples`, `prefixItems` becomes tuple `items`, read-only
 * properties are dropped from inputs, references are inlined, and references that recurse stay
 * `$ref`s into a `definitions` section. Converted references are shared between tools.
 */
export class SchemaConverter {
  private readonly memo = new Map<string, Converted>();
  private readonly names = new Map<string, string>();
  private readonly usedNames = new Set<string>();
  private readonly graph: ReferenceGraph;
  /** Enums left out for having more than {@link MAX_ENUM_VALUES} values (each converted schema once). */
  droppedEnums = 0;
  /** Examples and defaults left out for nesting deeper than {@link MAX_ANNOTATION_NESTING} levels. */
  droppedAnnotations = 0;

  constructor(
    private readonly resolver: RefResolver,
    private readonly dialect: SchemaDialect,
    private readonly maxDescriptionLength: number,
  ) {
    this.graph = new ReferenceGraph(resolver);
  }

  /** Converts one schema; `needs` lists the recursive references it uses. */
  convert(schema: unknown): Converted {
    const needs = new Set<string>();
    const out = this.walk(schema, needs, 0);
    return { schema: out, needs };
  }

  /** The `definitions` section for a set of recursive references, closed over what they use. */
  definitionsFor(needs: ReadonlySet<string>): Record<string, JsonSchema> | undefined {
    if (needs.size === 0) return undefined;
    const out: Record<string, JsonSchema> = {};
    const queue = [...needs];
    const seen = new Set<string>();
    while (queue.length > 0) {
      const ref = queue.pop() as string;
      if (seen.has(ref)) continue;
      seen.add(ref);
      const body = this.recursiveBody(ref);
      out[this.nameOf(ref)] = body.schema;
      for (const next of body.needs) if (!seen.has(next)) queue.push(next);
    }
    return out;
  }

  /** `#/definitions/<name>` for a recursive reference. */
  nameOf(ref: string): string {
    const known = this.names.get(ref);
    if (known) return known;
    const base =
      (ref.split('/').pop() ?? 'schema').replace(/~1/g, '_').replace(/[^A-Za-z0-9_.-]/g, '_') || 'schema';
    // `definitions.__proto__ = ...` would set the section's prototype and lose the schema
    let name = base === '__proto__' ? '_proto_' : base;
    const stem = name;
    for (let n = 2; this.usedNames.has(name); n++) name = `${stem}_${n}`;
    this.usedNames.add(name);
    this.names.set(ref, name);
    return name;
  }

  private recursiveBody(ref: string): Converted {
    const key = `body:${ref}`;
    const hit = this.memo.get(key);
    if (hit) return hit;
    const needs = new Set<string>();
    const placeholder: Converted = { schema: {}, needs };
    this.memo.set(key, placeholder);
    const schema = this.walk(this.resolver.resolve(ref), needs, 0);
    const done = { schema, needs };
    this.memo.set(key, done);
    return done;
  }

  private walkRef(ref: string, needs: Set<string>, depth: number): JsonSchema {
    if (this.graph.isRecursive(ref)) {
      // a loop made only of references (A: $ref B, B: $ref A) has no schema at all, and would
      // overflow the validator's stack; follow() throws CONFIG_INVALID for it
      this.resolver.follow(this.resolver.resolve(ref), ref);
      needs.add(ref);
      return { $ref: `#/definitions/${this.nameOf(ref)}` };
    }
    const hit = this.memo.get(ref);
    if (hit) {
      for (const need of hit.needs) needs.add(need);
      return hit.schema;
    }
    const own = new Set<string>();
    const schema = this.walk(this.resolver.resolve(ref), own, depth + 1);
    this.memo.set(ref, { schema, needs: own });
    for (const need of own) needs.add(need);
    return schema;
  }

  private walk(input: unknown, needs: Set<string>, depth: number): JsonSchema {
    if (input === true || input === undefined) return {};
    if (input === false) return { not: {} };
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return {};
    if (depth > MAX_SCHEMA_LEVELS)
      // an empty schema here would let anything through where the document says otherwise
      throw new ToolError(
        'CONFIG_INVALID',
        `a schema nests deeper than ${MAX_SCHEMA_LEVELS} levels (schemas inside schemas and references); flatten it or exclude the operation`,
      );
    const source = input as Mutable;
    if (typeof source.$ref === 'string') {
      const target = this.walkRef(
        this.graph.aliasEnd(source.$ref, (ref) => this.memo.has(ref)),
        needs,
        depth,
      );
      // 3.1 allows keywords next to $ref; 3.0 and 2.0 ignore them except the description
      const siblings = Object.keys(source).filter((key) => key !== '$ref' && !key.startsWith('x-'));
      if (siblings.length === 0) return target;
      if (this.dialect !== '3.1' || siblings.every((key) => key === 'description' || key === 'summary')) {
        return typeof source.description === 'string'
          ? { ...target, description: trimText(source.description, this.maxDescriptionLength) }
          : target;
      }
      const rest: Mutable = { ...source };
      delete rest.$ref;
      return { allOf: [target, this.walk(rest, needs, depth + 1)] };
    }
    const out: Mutable = {};
    for (const [key, value] of Object.entries(source)) {
      if (DROPPED.has(key) || key.startsWith('x-')) continue;
      if ((SCHEMA_MAPS as readonly string[]).includes(key) && typeof value === 'object' && value !== null) {
        const map: Mutable = {};
        for (const [name, member] of Object.entries(value as Mutable)) {
          if (key === 'properties' && this.isReadOnly(member)) continue;
          setOwn(map, name, this.walk(member, needs, depth + 1));
        }
        out[key] = map;
      } else if ((SCHEMA_LISTS as readonly string[]).includes(key) && Array.isArray(value)) {
        // in OpenAPI the discriminator picks the branch, and branches usually overlap (a Cat is a
        // valid Dog when neither forbids other properties): `oneOf` would refuse every such value
        const picked =
          key === 'oneOf' &&
          typeof source.discriminator === 'object' &&
          source.discriminator !== null &&
          source.anyOf === undefined;
        out[picked ? 'anyOf' : key] = value.map((member) => this.walk(member, needs, depth + 1));
      } else if ((SCHEMA_SINGLES as readonly string[]).includes(key) && typeof value === 'object') {
        out[key] = this.walk(value, needs, depth + 1);
      } else if (key === 'items') {
        out.items = Array.isArray(value)
          ? value.map((member) => this.walk(member, needs, depth + 1))
          : this.walk(value, needs, depth + 1);
      } else if (key === 'dependentSchemas' && typeof value === 'object' && value !== null) {
        const deps = (out.dependencies ?? {}) as Mutable;
        for (const [name, member] of Object.entries(value as Mutable))
          setOwn(deps, name, this.walk(member, needs, depth + 1));
        out.dependencies = deps;
      } else if (key === 'dependentRequired' && typeof value === 'object' && value !== null) {
        out.dependencies = { ...((out.dependencies ?? {}) as Mutable), ...(value as Mutable) };
      } else if (key === 'dependencies' && typeof value === 'object' && value !== null) {
        const deps = (out.dependencies ?? {}) as Mutable;
        for (const [name, member] of Object.entries(value as Mutable)) {
          setOwn(deps, name, Array.isArray(member) ? member : this.walk(member, needs, depth + 1));
        }
        out.dependencies = deps;
      } else if (key === 'enum' && Array.isArray(value) && value.length > MAX_ENUM_VALUES) {
        // a schema the model is shown: 100,000 allowed values would crowd out everything else
        this.droppedEnums++;
        const note = `One of ${value.length} values (too many to list; the API checks the value).`;
        out.description = typeof out.description === 'string' ? `${out.description} ${note}` : note;
      } else if (key === 'description' && typeof value === 'string') {
        const trimmed = trimText(value, this.maxDescriptionLength);
        out.description = typeof out.description === 'string' ? `${trimmed} ${out.description}` : trimmed;
      } else {
        setOwn(out, key, value);
      }
    }
    normalizeKeywords(source, out);
    // annotations only: one nesting this deep would cost the operation (its schema too deep to serve)
    for (const key of ['examples', 'default'] as const) {
      if (out[key] !== undefined && nestsDeeperThan(out[key], MAX_ANNOTATION_NESTING)) {
        delete out[key];
        this.droppedAnnotations++;
      }
    }
    return out;
  }

  private isReadOnly(member: unknown): boolean {
    if (typeof member !== 'object' || member === null) return false;
    const record = member as Mutable;
    if (record.readOnly === true) return true;
    if (typeof record.$ref === 'string') {
      try {
        const target = this.resolver.resolve(record.$ref);
        return typeof target === 'object' && target !== null && (target as Mutable).readOnly === true;
      } catch {
        return false;
      }
    }
    return false;
  }
}
