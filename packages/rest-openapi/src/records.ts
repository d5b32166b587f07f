/**
 * Sets `record[key]` as an own property, even when the key is `__proto__` (which plain
 * assignment would turn into a prototype change, losing the entry). Names from documents and
 * arguments from models may be any string.
 */
export function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  } else record[key] = value;
}

/**
 * `record[key]` when it is the record's own property, else undefined: a plain object answers
 * `constructor`, `toString` or `valueOf` with what it inherits, which names from models, documents
 * and configuration must never reach.
 */
export function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
