/** Where `${...}` placeholders take their values from. */
export interface InterpolationContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly workspaceFolder?: string;
  readonly userHome?: string;
  /** Values of VS Code `${input:id}` placeholders, by input id. */
  readonly inputs?: Readonly<Record<string, string>>;
  /** How a user gives `${input:id}` a value, for the problem reported when it has none. */
  readonly inputHint?: (id: string) => string;
}

/** Result of interpolating one string: the value, or the placeholders that did not resolve. */
export type InterpolationOutcome =
  | { readonly ok: true; readonly value: string }
  | { readonly ok: false; readonly missing: readonly string[] };

const PLACEHOLDER = /\$\{([^}]*)\}/g;

/**
 * A string the map holds under `name` itself: `${constructor}` must not find `Object.prototype`'s
 * function (nor `${__proto__}` the prototype) and put its text in a command line.
 */
function own(
  map: Readonly<Record<string, string | undefined>> | undefined,
  name: string,
): string | undefined {
  if (map === undefined || !Object.hasOwn(map, name)) return undefined;
  const value = map[name];
  return typeof value === 'string' ? value : undefined;
}

function resolveOne(expression: string, context: InterpolationContext): string | undefined {
  if (expression === 'workspaceFolder') return context.workspaceFolder;
  if (expression === 'userHome') return context.userHome;
  if (expression.startsWith('env:')) return own(context.env, expression.slice(4));
  if (expression.startsWith('input:')) return own(context.inputs, expression.slice(6));
  const fallbackAt = expression.indexOf(':-');
  if (fallbackAt > 0) {
    const value = own(context.env, expression.slice(0, fallbackAt));
    return value === undefined || value === '' ? expression.slice(fallbackAt + 2) : value;
  }
  return own(context.env, expression);
}

/**
 * Replaces `${VAR}`, `${VAR:-default}`, `${env:VAR}`, `${workspaceFolder}`, `${userHome}` and
 * `${input:id}` in one string. A placeholder without a value is reported, never left as text.
 *
 * @example
 * interpolate('Bearer ${TOKEN}', { env: { TOKEN: 'abc' } }); // { ok: true, value: 'Bearer abc' }
 */
export function interpolate(text: string, context: InterpolationContext): InterpolationOutcome {
  const missing: string[] = [];
  const value = text.replace(PLACEHOLDER, (whole, expression: string) => {
    // `${A:-${B}}`: the first `}` ends the placeholder, so the default was `${B` and a `}` was
    // left over (a literal "${B}", or A's value and a "}"): never guessed, reported
    if (expression.includes('${')) {
      missing.push(whole);
      return whole;
    }
    const resolved = resolveOne(expression.trim(), context);
    if (resolved === undefined) {
      missing.push(whole);
      return whole;
    }
    return resolved;
  });
  return missing.length > 0 ? { ok: false, missing } : { ok: true, value };
}
