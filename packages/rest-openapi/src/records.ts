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
