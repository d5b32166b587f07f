import type { McpAuthRecord } from './token-store.js';

/** The values of a record a scrubber must redact: tokens and the client secret. */
export function recordSecrets(record: McpAuthRecord | undefined): string[] {
  if (!record) return [];
  const values: string[] = [];
  const add = (value: unknown): void => {
    if (typeof value === 'string' && value.length >= 6) values.push(value);
  };
  add(record.tokens?.access_token);
  add(record.tokens?.refresh_token);
  add(record.tokens?.id_token);
  add((record.client as { client_secret?: unknown } | undefined)?.client_secret);
  return values;
}
