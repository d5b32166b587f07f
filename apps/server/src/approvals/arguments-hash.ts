import { createHash } from 'node:crypto';

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  return value;
}

/** sha-256 of the arguments in canonical JSON (keys sorted): what an approval is bound to. */
export function argumentsHash(args: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(args ?? {})), 'utf8')
    .digest('hex');
}
