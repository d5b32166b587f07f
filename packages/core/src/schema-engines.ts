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

let engines: { draft07: Ajv; draft2019: Ajv; draft2020: Ajv } | undefined;

/** The engine of a schema's dialect (draft-07 unless `$schema` names 2019-09 or 2020-12). */
export function engineFor(schema: JsonSchema, options: EngineOptions): Ajv {
  if (!engines) {
    engines = {
      draft07: bindScopeLinearly(addFormats(new Ajv(options))),
      draft2019: bindScopeLinearly(addFormats(new Ajv2019(options) as unknown as Ajv)),
      draft2020: bindScopeLinearly(addFormats(new Ajv2020(options) as unknown as Ajv)),
    };
  }
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (dialect.includes('2020-12')) return engines.draft2020;
  if (dialect.includes('2019-09')) return engines.draft2019;
  return engines.draft07;
}
