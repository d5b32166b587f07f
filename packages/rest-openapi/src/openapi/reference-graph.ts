import type { RefResolver } from './resolver.js';

type Mutable = Record<string, unknown>;

/** How a document's local schema references lead to one another: loops, and chains of references only. */
export class ReferenceGraph {
  private readonly recursion = new Map<string, boolean>();
  private readonly edges = new Map<string, readonly string[]>();

  constructor(private readonly resolver: RefResolver) {}

  /** Whether a reference can reach itself through other references. */
  isRecursive(ref: string): boolean {
    const known = this.recursion.get(ref);
    if (known !== undefined) return known;
    const seen = new Set<string>();
    const stack = [...this.refsIn(ref)];
    let found = false;
    while (stack.length > 0 && !found) {
      const next = stack.pop() as string;
      if (next === ref) found = true;
      else if (!seen.has(next)) {
        seen.add(next);
        stack.push(...this.refsIn(next));
      }
    }
    this.recursion.set(ref, found);
    return found;
  }

  private refsIn(ref: string): readonly string[] {
    const known = this.edges.get(ref);
    if (known) return known;
    const found: string[] = [];
    const visit = (value: unknown, depth: number): void => {
      if (depth > 100 || typeof value !== 'object' || value === null) return;
      if (Array.isArray(value)) {
        for (const item of value) visit(item, depth + 1);
        return;
      }
      const record = value as Mutable;
      if (typeof record.$ref === 'string') found.push(record.$ref);
      for (const [key, member] of Object.entries(record)) {
        if (
          key !== '$ref' &&
          key !== 'example' &&
          key !== 'examples' &&
          key !== 'enum' &&
          key !== 'const' &&
          key !== 'default'
        ) {
          visit(member, depth + 1);
        }
      }
    };
    try {
      visit(this.resolver.resolve(ref), 0);
    } catch {
      // an unresolvable reference is reported where it is used
    }
    this.edges.set(ref, found);
    return found;
  }

  /**
   * The end of a chain of references that are only references (`A: $ref B`, `B: $ref C`...),
   * followed without recursion, so a chain 10,000 long costs no stack; a loop of them throws.
   */
  aliasEnd(ref: string, converted: (ref: string) => boolean): string {
    let current = ref;
    const seen = new Set<string>();
    for (;;) {
      if (converted(current)) return current;
      let target: unknown;
      try {
        target = this.resolver.resolve(current);
      } catch {
        return current; // reported where it is used
      }
      if (typeof target !== 'object' || target === null) return current;
      const next = (target as Mutable).$ref;
      const alias =
        typeof next === 'string' &&
        Object.keys(target).every((key) => key === '$ref' || key.startsWith('x-'));
      if (!alias) return current;
      if (seen.has(current)) {
        // follow() names the loop with CONFIG_INVALID
        this.resolver.follow(target, ref);
        return current;
      }
      seen.add(current);
      current = next;
    }
  }
}
