import type { Dialect } from './types.js';

interface NameRule {
  readonly valid: RegExp;
  readonly invalidChar: RegExp;
  readonly maxLength: number;
  /** Characters a name may start with (Gemini: a letter or an underscore). */
  readonly first?: RegExp;
}

const DASHED: NameRule = { valid: /^[a-zA-Z0-9_-]{1,64}$/, invalidChar: /[^a-zA-Z0-9_-]/g, maxLength: 64 };

/** Tool names each dialect accepts. */
export const NAME_RULES: Readonly<Record<Dialect, NameRule>> = {
  openai: DASHED,
  'openai-strict': DASHED,
  anthropic: DASHED,
  gemini: {
    valid: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/,
    invalidChar: /[^a-zA-Z0-9_.:-]/g,
    maxLength: 64,
    first: /^[a-zA-Z_]/,
  },
  mcp: { valid: /^[a-zA-Z0-9_.-]{1,128}$/, invalidChar: /[^a-zA-Z0-9_.-]/g, maxLength: 128 },
};

function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** A name the dialect accepts: the name itself when valid, otherwise a cleaned one ending in a hash. */
export function dialectName(name: string, dialect: Dialect): string {
  const rule = NAME_RULES[dialect];
  if (rule.valid.test(name)) return name;
  let clean = name.replace(rule.invalidChar, '_');
  if (rule.first && !rule.first.test(clean)) clean = `t_${clean}`;
  const tail = `_${hash(name)}`;
  return `${clean.slice(0, rule.maxLength - tail.length)}${tail}`;
}

/** Dialect names for a list of tool names, unique, in order (a clash gets `_2`, `_3`...). */
export function allocateDialectNames(names: readonly string[], dialect: Dialect): string[] {
  const used = new Set<string>();
  const max = NAME_RULES[dialect].maxLength;
  return names.map((name) => {
    const base = dialectName(name, dialect);
    let candidate = base;
    for (let n = 2; used.has(candidate); n++) candidate = `${base.slice(0, max - String(n).length - 1)}_${n}`;
    used.add(candidate);
    return candidate;
  });
}
