/**
 * What each restricted dialect keeps. Keywords not kept are dropped; those in `describe` are
 * written into the description so the model still reads them (toolplane validates the
 * original schema, so the constraint holds either way).
 */
export interface DialectRules {
  /** OpenAI strict mode: every property required (optional ones nullable), no extra properties. */
  readonly strictObjects: boolean;
  /** How a nullable value is written: a `null` in the type list, or Gemini's `nullable: true`. */
  readonly nullable: 'type-array' | 'nullable-keyword';
  /** Gemini: enum values must be strings. */
  readonly enumsAsStrings: boolean;
  /** Gemini: no `const`. */
  readonly constKeyword: boolean;
  /** Annotation and constraint keywords kept as they are. */
  readonly keep: ReadonlySet<string>;
  /** Formats kept (others move to the description). */
  readonly formats: ReadonlySet<string>;
}

const COMMON_KEEP = ['description', 'title', 'minimum', 'maximum', 'minItems', 'maxItems'];

/** OpenAI Structured Outputs' subset (function tools with `strict: true`). */
export const OPENAI_STRICT_RULES: DialectRules = {
  strictObjects: true,
  nullable: 'type-array',
  enumsAsStrings: false,
  constKeyword: true,
  keep: new Set([...COMMON_KEEP, 'pattern', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']),
  formats: new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']),
};

/** Gemini function declarations: an OpenAPI 3.0 schema subset. */
export const GEMINI_RULES: DialectRules = {
  strictObjects: false,
  nullable: 'nullable-keyword',
  enumsAsStrings: true,
  constKeyword: false,
  keep: new Set([...COMMON_KEEP, 'minLength', 'maxLength', 'pattern', 'minProperties', 'maxProperties']),
  formats: new Set(['date-time', 'enum', 'int32', 'int64', 'float', 'double']),
};

/** Keywords the compiler handles itself (structure), never copied blindly. */
export const STRUCTURAL = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'allOf',
  '$ref',
  '$defs',
  'definitions',
  '$schema',
  '$id',
  '$comment',
  'format',
  'nullable',
]);

/** Keywords that only annotate (dropped without a word when a dialect lacks them). */
export const ANNOTATIONS = new Set([
  '$comment',
  '$id',
  '$schema',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
]);
