// What an assignment's value reads as when it is not a literal: code, or a file's path.

const IDENTIFIER_CHAIN = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
const EXTENSION = /^[A-Za-z0-9]{1,8}$/;

/** The regexes of this file (checked for linear time by a test, with the assignment matcher's). */
export const CODE_VALUE_PATTERNS: readonly RegExp[] = [IDENTIFIER_CHAIN, EXTENSION];

/** An unquoted value that reads as an expression: `process.env.X!`, `options?.token`, `clientSecret`, `Schema$1`. */
export function looksLikeCode(value: string): boolean {
  const expression = value.replace(/\?\./g, '.').replace(/[!?]+$/, '');
  if (!IDENTIFIER_CHAIN.test(expression)) return false;
  if (expression.includes('.') || expression.includes('$')) return true;
  return /[a-z][A-Z]/.test(expression) && !/[0-9]/.test(expression);
}

/** Whether the last path segment of `value` is a file name with an extension (`key.json`). */
export function hasFileExtension(value: string): boolean {
  const name = value.slice(value.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 && EXTENSION.test(name.slice(dot + 1));
}
