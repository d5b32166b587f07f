import type { ShellWord } from '../words/shell-word.js';
import { elementKey, literalIndex } from './array-keys.js';

/** The suffix of the variable that marks NAME as a nameref (`declare -n NAME=TARGET`). */
const NAMEREF = '[\u0004]';

/**
 * The suffix of the variable that marks NAME as a nameref with no target yet (`declare -n NAME`):
 * the next value NAME is given names its target.
 */
const PENDING = '[\u0005]';

/** What a variable name may be, with an element (`m[k]`): what a nameref can name. */
const TARGET = /^[A-Za-z_][A-Za-z0-9_]*(\[.+\])?$/s;

/** Most namerefs followed one after another (bash stops a chain too, at a loop). */
const MAX_CHAIN = 8;

/** A key no variable has: what a nameref whose target is unknown reads and writes. */
const NOWHERE = '\u0004unknown';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

/**
 * The variables of a line as {@link LineFacts} keeps them, by key (`A`, `A[3]`, `A[@]`, the
 * markers of arrays), with namerefs followed: once `declare -n r=m` is recorded, every key of
 * `r` (`r`, `r[1]`, `r[@]`, ...) reads and writes the same key of `m`, whatever `m` holds
 * later, as bash does; a nameref to an element (`declare -n e='m[k]'`) reads that element.
 * Iteration gives the keys as stored.
 */
export class Variables extends Map<string, readonly ShellWord[]> {
  /** Whether any nameref was recorded (the translation is skipped until then). */
  private namerefs = false;

  /** Shared by every copy of one line's variables, so a child's rollback keeps it. */
  private readonly shared: { ambiguous: boolean };

  constructor(from?: Variables) {
    super();
    this.shared = from?.shared ?? { ambiguous: false };
    if (!from) return;
    for (const [key, value] of from) super.set(key, value);
    this.namerefs = from.namerefs;
  }

  /**
   * `declare -n NAME=TARGET`: NAME names TARGET. A target known only at run time leaves NAME a
   * plain variable with no value yet: what is assigned through it reads back through it, while
   * the variable it lands in is not known.
   */
  setNameref(name: string, target: string | undefined): void {
    for (const key of [...super.keys()]) if (key === name || key.startsWith(`${name}[`)) super.delete(key);
    if (target === undefined || !TARGET.test(target)) return;
    super.set(`${name}${NAMEREF}`, [{ text: target, dynamic: false, glob: false, substitutions: [] }]);
    this.namerefs = true;
  }

  /**
   * `declare -n NAME` without a value: a value NAME already has (`r=OUT; declare -n r`) names
   * its target at once; with none, the next value assigned to NAME does (`declare -n r;
   * r=OUT`), as bash does.
   */
  declareNameref(name: string): void {
    if (super.has(`${name}${NAMEREF}`)) return;
    const value = super.get(name);
    if (value === undefined) {
      super.set(`${name}${PENDING}`, [{ text: name, dynamic: false, glob: false, substitutions: [] }]);
      this.namerefs = true;
      return;
    }
    this.setNameref(name, targetOf(value));
  }

  /** Whether NAME is a nameref, with a target or waiting for one (a `for` loop then names each word). */
  isNameref(name: string): boolean {
    return super.has(`${name}${NAMEREF}`) || super.has(`${name}${PENDING}`);
  }

  /**
   * Whether a nameref whose target depends on a branch (declared or given its target after
   * `&&`, in an `if`...) was used: reads and writes through it follow only one of its targets,
   * so the line is asked.
   */
  get ambiguous(): boolean {
    return this.shared.ambiguous;
  }

  /** The variable a name stands for: the one a chain of namerefs leads to, else the name itself. */
  resolveName(name: string): string {
    const target = this.target(name);
    return NAME.exec(target)?.[0] === target ? target : name;
  }

  /** The key a key reads and writes, through the namerefs of its name. */
  private target(key: string): string {
    let current = key;
    for (let step = 0; this.namerefs && step < MAX_CHAIN; step++) {
      const name = NAME.exec(current)?.[0];
      const suffix = name === undefined ? '' : current.slice(name.length);
      if (
        name === undefined ||
        suffix === NAMEREF ||
        suffix === PENDING ||
        (suffix !== '' && !suffix.startsWith('['))
      )
        return current;
      const marker = super.get(`${name}${NAMEREF}`);
      if (!marker) return current;
      // `[ -e x ] && declare -n r=OUT`: r may name OUT or nothing; which one is not followed.
      if (marker.length > 1) this.shared.ambiguous = true;
      const target = marker[0];
      if (!target) return current;
      const element = /^([A-Za-z_][A-Za-z0-9_]*)\[(.+)\]$/s.exec(target.text);
      if (!element) {
        current = `${target.text}${suffix}`;
        continue;
      }
      // A nameref to an element reads it as a plain value only.
      if (suffix !== '') return NOWHERE;
      const index = literalIndex(element[2] as string);
      current = index === undefined ? target.text : elementKey(element[1] as string, index);
    }
    return current;
  }

  override get(key: string): readonly ShellWord[] | undefined {
    return super.get(this.target(key));
  }

  override has(key: string): boolean {
    return super.has(this.target(key));
  }

  override set(key: string, value: readonly ShellWord[]): this {
    // A nameref a function made (`declare -gn`) comes back by its marker.
    if (key.endsWith(NAMEREF) || key.endsWith(PENDING)) this.namerefs = true;
    // `declare -n r; r=OUT`: the first value of a nameref with no target names it.
    if (this.namerefs && !key.endsWith(PENDING) && super.has(`${key}${PENDING}`)) {
      this.setNameref(key, targetOf(value));
      return this;
    }
    const target = this.target(key);
    if (target !== NOWHERE) super.set(target, value);
    return this;
  }

  override delete(key: string): boolean {
    return super.delete(this.target(key));
  }
}

/** The variable a value names, when it is one known name (else a nameref's target is unknown). */
function targetOf(value: readonly ShellWord[]): string | undefined {
  const only = value.length === 1 ? value[0] : undefined;
  return only && !only.dynamic && TARGET.test(only.text) ? only.text : undefined;
}
