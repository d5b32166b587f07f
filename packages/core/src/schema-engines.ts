import { Ajv, type Name, _ } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as formatsModule from 'ajv-formats';
import type { JsonSchema } from './spec.js';

type FormatsPlugin = (ajv: Ajv) => Ajv;
const addFormats: FormatsPlugin = ((formatsModule as unknown as { default?: { default?: FormatsPlugin } })
  .default?.default ?? (formatsModule as unknown as { default: FormatsPlugin }).default) as FormatsPlugin;

/** The names a compiled function takes from its engine's scope, as ajv keeps them. */
type ScopeNames = Parameters<Ajv['scope']['scopeRefs']>[1];

/**
 * ajv writes the line that binds each scope value a compiled function uses (a pattern, a format,
 * a referenced function) by appending to the code of all lines before it, item by item: quadratic
 * in the count, and over about 8,000 values (a schema of 8,000 properties with a `pattern` each)
 * the spread of the items overflows the stack. Measured: 1,000 patterned properties 1.8 s,
 * 4,000 15 s, 8,000 46 s and then `RangeError`. This writes the same lines in one pass; the
 * method is public (`Ajv.scope.scopeRefs`), the compiled code is the same text.
 */
function bindScopeLinearly(engine: Ajv): Ajv {
  const scope = engine.scope;
  const original = scope.scopeRefs.bind(scope);
  scope.scopeRefs = (scopeName: Name, values?: ScopeNames) => {
    if (!values) return original(scopeName, values);
    const lines: string[] = [];
    for (const prefix of Object.keys(values)) {
      const names = values[prefix];
      names?.forEach((name) => {
        if (name.scopePath === undefined) throw new Error(`CodeGen: name "${name}" has no value`);
        lines.push(`const ${name} = ${scopeName}${name.scopePath};`);
      });
    }
    const text = lines.join('');
    return _(Object.assign([text], { raw: [text] }) as unknown as TemplateStringsArray);
  };
  return engine;
}

/** ajv's options for every dialect; `regExp` is core's pattern engine. */
export type EngineOptions = ConstructorParameters<typeof Ajv>[0];

type Dialect = 'draft07' | 'draft2019' | 'draft2020';

/**
 * Compilations an engine serves before a fresh one takes over. ajv keeps every schema it compiled
 * (and the functions of its references) in the engine's scope for as long as the engine lives:
 * with one engine for the whole process, every schema a server ever listed would stay in memory
 * (5,000 schemas of 2 KB: 27 MiB, never freed). A replaced engine is freed once no function it
 * compiled is in use. Starting one (formats, meta-schema) costs tens of milliseconds, 40-430 ms
 * on a busy machine: about 0.1-0.9 ms per compilation spread over 500.
 */
const COMPILES_PER_ENGINE = 500;

/** Engines by dialect, and by whether they check schemas against the dialect's meta-schema. */
const engines = new Map<string, { readonly ajv: Ajv; compiles: number }>();

function createEngine(dialect: Dialect, options: EngineOptions): Ajv {
  if (dialect === 'draft2020') return bindScopeLinearly(addFormats(new Ajv2020(options) as unknown as Ajv));
  if (dialect === 'draft2019') return bindScopeLinearly(addFormats(new Ajv2019(options) as unknown as Ajv));
  return bindScopeLinearly(addFormats(new Ajv(options)));
}

/**
 * The engine of a schema's dialect (draft-07 unless `$schema` names 2019-09 or 2020-12), for
 * one compilation.
 */
export function engineFor(schema: JsonSchema, options: EngineOptions): Ajv {
  const named = typeof schema.$schema === 'string' ? schema.$schema : '';
  const dialect: Dialect = named.includes('2020-12')
    ? 'draft2020'
    : named.includes('2019-09')
      ? 'draft2019'
      : 'draft07';
  const key = `${dialect} ${options?.validateSchema === false ? 'unchecked' : 'checked'}`;
  let engine = engines.get(key);
  if (!engine || engine.compiles >= COMPILES_PER_ENGINE) {
    engine = { ajv: createEngine(dialect, options), compiles: 0 };
    engines.set(key, engine);
  }
  engine.compiles++;
  return engine.ajv;
}
