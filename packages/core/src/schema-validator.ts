import type { ErrorObject, ValidateFunction } from 'ajv';
import { ToolError, errorMessage } from './errors.js';
import { type PatternTest, patternTest } from './pattern-engine.js';
import { checkableProto } from './proto-properties.js';
import { type EngineOptions, engineFor } from './schema-engines.js';
import { DEFAULT_MAX_SCHEMA_NODES, countSchemaNodes } from './schema-size.js';
import type { JsonSchema } from './spec.js';
import { isZodValidated } from './zod-validated-schemas.js';

/** One reason a value does not match its schema. */
export interface ValidationIssue {
  /** Where, as `args.items[0].name` (`args` is the root). */
  readonly path: string;
  /** What was expected there. */
  readonly message: string;
}

/** Outcome of a validation. */
export type ValidationOutcome =
  | { readonly valid: true }
  | {
      readonly valid: false;
      /** The reasons, at most {@link MAX_ISSUES} (1,000) of them. */
      readonly issues: readonly ValidationIssue[];
      /**
       * How many reasons there were, set when some are not in `issues`: past the first 1,000
       * they are counted, not described (a million wrong items took seconds to describe).
       */
      readonly issueCount?: number;
    };

/** Issues described per validation; the rest are counted. */
const MAX_ISSUES = 1000;

/** A schema compiled once; `validate` is cheap enough to run on every call. */
export interface CompiledSchema {
  readonly schema: JsonSchema;
  validate(value: unknown): ValidationOutcome;
  /**
   * `pattern` and `patternProperties` patterns of the schema that are not always checked: the
   * linear-time engine cannot run them (lookaround, backreferences, a repeat count over 1000, a
   * binary Unicode property), and V8's backtracking, which a crafted string can keep busy for
   * hours, runs them only on strings short enough to bound it (none for a group repeated without
   * bound); a longer string counts as matching. Empty for most schemas; tell the user (the
   * orchestrator warns once per tool).
   */
  readonly uncheckedPatterns: readonly string[];
}

/** Patterns found unchecked while the current schema compiles (compiling is synchronous). */
let unchecked: Set<string> | undefined;

/**
 * ajv's regular expression engine (`code.regExp`): each pattern through {@link patternTest},
 * which never lets V8 backtrack beyond a bound. A pattern that is not ECMA-262 throws, so its
 * schema does not compile.
 */
function patternEngine(pattern: string): PatternTest & { toString(): string } {
  const tester = patternTest(pattern);
  if (tester.partial) unchecked?.add(pattern);
  // toString keys ajv's cache of pattern objects
  return { test: tester.test, toString: () => `/${pattern}/u` };
}
patternEngine.code = 'toolplane linear pattern engine';

const options: EngineOptions = {
  allErrors: true,
  strict: false,
  logger: false,
  addUsedSchema: false,
  validateSchema: true,
  // a property is present only when the value has it as its own: without this, `{}` had a
  // `constructor` (a function: "must be string") and a `__proto__` (required, and satisfied)
  ownProperties: true,
  code: { regExp: patternEngine },
};

/** For the schemas of tools that zod validates: not checked against the meta-schema first. */
const zodToolOptions: EngineOptions = { ...options, validateSchema: false };

const VALID: ValidationOutcome = { valid: true };
let anonymous = 0;

/**
 * Compiles with the engine of the schema's dialect. A schema without an `$id` that refers to
 * itself (`{ "$ref": "#" }`, recursive structures) has no base to resolve against when schemas
 * are not registered (they are not: two tools may share an id), so it is compiled again under
 * an id of its own; the caller's object is not changed.
 */
function compileWithBase(given: JsonSchema): ValidateFunction {
  const schema = checkableProto(given);
  const engine = engineFor(schema, isZodValidated(given) ? zodToolOptions : options);
  try {
    return engine.compile(schema as Record<string, unknown>);
  } catch (error) {
    const unresolved = /can't resolve reference/.test(errorMessage(error));
    if (!unresolved || typeof schema.$id === 'string') throw error;
    anonymous++;
    try {
      return engine.compile({ ...schema, $id: `https://toolplane.invalid/schema/${anonymous}` });
    } catch {
      throw error; // a reference that points nowhere: the message without the id made up here
    }
  }
}
const cache = new WeakMap<object, CompiledSchema>();

/** Options of {@link compileSchema}. */
export interface CompileSchemaOptions {
  /**
   * Objects and arrays the schema may hold ({@link DEFAULT_MAX_SCHEMA_NODES}, 5,000, by
   * default): compiling costs about 0.1-0.3 ms each on the caller's thread, so a larger schema
   * is `CONFIG_INVALID` rather than holding the process for seconds. A schema already compiled
   * is returned from the cache whatever the limit.
   */
  readonly maxSchemaNodes?: number;
}

/**
 * Compiles a JSON Schema (draft-07, 2019-09 or 2020-12 by its `$schema`) once and caches it by
 * object identity. Throws `CONFIG_INVALID` when the schema itself is broken or holds more than
 * `maxSchemaNodes` objects and arrays (5,000 by default).
 *
 * @example
 * const compiled = compileSchema({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] });
 * compiled.validate({}); // { valid: false, issues: [{ path: 'args.q', message: 'is required' }] }
 */
export function compileSchema(schema: JsonSchema, compileOptions: CompileSchemaOptions = {}): CompiledSchema {
  const hit = cache.get(schema);
  if (hit) return hit;
  const limit = compileOptions.maxSchemaNodes ?? DEFAULT_MAX_SCHEMA_NODES;
  if (!(limit === Number.POSITIVE_INFINITY || (Number.isSafeInteger(limit) && limit > 0))) {
    throw new ToolError(
      'CONFIG_INVALID',
      `maxSchemaNodes must be a positive integer (or Infinity for no limit), got ${String(limit)}`,
    );
  }
  if (countSchemaNodes(schema, limit) > limit) {
    throw new ToolError(
      'CONFIG_INVALID',
      `schema is too large to compile: it holds more than ${limit} objects and arrays (maxSchemaNodes), which would hold the process for seconds; split the tool's input into smaller tools, or raise maxSchemaNodes if the schema is trusted`,
    );
  }
  let check: ValidateFunction;
  const found = new Set<string>();
  unchecked = found;
  try {
    check = compileWithBase(schema);
  } catch (error) {
    throw new ToolError('CONFIG_INVALID', `schema does not compile: ${errorMessage(error)}`, {
      cause: error,
    });
  } finally {
    unchecked = undefined;
  }
  // a schema that refers to itself without end (`{ "$ref": "#" }`) or is too large for the stack
  // overflows it on any value: refused once, here, rather than on every call
  try {
    check({});
  } catch (error) {
    throw new ToolError(
      'CONFIG_INVALID',
      `schema does not compile: checking even {} against it fails (${errorMessage(error)}): it refers to itself without end or is too large`,
      { cause: error },
    );
  }
  const compiled: CompiledSchema = {
    schema,
    uncheckedPatterns: [...found],
    validate(value) {
      try {
        if (check(value)) return VALID;
      } catch (error) {
        // a value nested deeper than the stack can follow through a recursive schema
        return {
          valid: false,
          issues: [{ path: 'args', message: `nests too deep to be checked (${errorMessage(error)})` }],
        };
      }
      return invalid(check.errors ?? []);
    },
  };
  cache.set(schema, compiled);
  return compiled;
}

/** A validation that failed: what {@link formatIssues} reads its issues and their count from. */
export type InvalidOutcome = Extract<ValidationOutcome, { readonly valid: false }>;

/**
 * Joins issues into one line: `args.q: is required; args.limit: must be <= 100`, naming the
 * first `max` (5) and `and N more` for the rest. Pass the failed outcome itself: a validation
 * describes at most 1,000 issues and counts the rest (`issueCount`), and `formatIssues(outcome)`
 * counts them all. Given only `outcome.issues`, it can count only those 1,000 (`and 995 more`
 * for 5,000 wrong items) unless `total` (the `issueCount`) is given as well.
 *
 * @example
 * const outcome = compileSchema(schema).validate(args);
 * if (!outcome.valid) throw new ToolError('INVALID_ARGUMENTS', formatIssues(outcome));
 */
export function formatIssues(outcome: InvalidOutcome, max?: number): string;
export function formatIssues(issues: readonly ValidationIssue[], max?: number, total?: number): string;
export function formatIssues(
  given: readonly ValidationIssue[] | InvalidOutcome,
  max = 5,
  total?: number,
): string {
  const issues = isOutcome(given) ? given.issues : given;
  const counted = isOutcome(given) ? (given.issueCount ?? issues.length) : (total ?? issues.length);
  const shown = issues.slice(0, max).map((issue) => `${issue.path}: ${issue.message}`);
  const count = Math.max(counted, issues.length);
  if (count > shown.length) shown.push(`and ${count - shown.length} more`);
  return shown.join('; ');
}

function isOutcome(given: readonly ValidationIssue[] | InvalidOutcome): given is InvalidOutcome {
  return !Array.isArray(given);
}

function toPath(instancePath: string): string {
  if (!instancePath) return 'args';
  let path = 'args';
  for (const raw of instancePath.slice(1).split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(part)
      ? `[${part}]`
      : /^[A-Za-z_$][\w$]*$/.test(part)
        ? `.${part}`
        : `[${JSON.stringify(part)}]`;
  }
  return path;
}

function describe(error: ErrorObject): ValidationIssue {
  const path = toPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return {
        path: `${path === 'args' ? 'args' : path}.${String(params.missingProperty)}`,
        message: 'is required',
      };
    case 'additionalProperties':
      return { path, message: `has unknown property "${String(params.additionalProperty)}"` };
    case 'enum':
      return {
        path,
        message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    case 'const':
      return { path, message: `must be ${JSON.stringify(params.allowedValue)}` };
    default:
      return { path, message: error.message ?? error.keyword };
  }
}

function invalid(errors: readonly ErrorObject[]): ValidationOutcome {
  const { issues, uncounted } = toIssues(errors);
  if (uncounted === 0) return { valid: false, issues };
  let more = 0;
  for (let at = uncounted; at < errors.length; at++) if (errors[at]?.keyword !== 'if') more++;
  return { valid: false, issues, issueCount: issues.length + more };
}

/** The first {@link MAX_ISSUES} issues, and where in `errors` describing stopped (0: it did not). */
function toIssues(errors: readonly ErrorObject[]): { issues: ValidationIssue[]; uncounted: number } {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (let at = 0; at < errors.length; at++) {
    const error = errors[at] as ErrorObject;
    // anyOf/oneOf report every branch; the summary line is the useful one
    if (error.keyword === 'if') continue;
    if (issues.length === MAX_ISSUES) return { issues, uncounted: at };
    const issue = describe(error);
    const key = `${issue.path}|${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return { issues, uncounted: 0 };
}
