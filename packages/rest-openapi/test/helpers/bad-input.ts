import { ToolError, type ToolResult } from '@toolplane/core';
import type { RestToolConfig } from '../../src/index.js';
import { objectSchema } from './fixtures.js';

/** The ToolError a factory throws (closing what it made if it did not throw). */
export function thrown(make: () => unknown): ToolError {
  try {
    const made = make() as { close?: () => Promise<void> } | undefined;
    void made?.close?.();
  } catch (error) {
    if (ToolError.isInstance(error)) return error;
    throw new Error(`expected a ToolError, got ${String(error)}`);
  }
  throw new Error('expected the factory to throw');
}

/** The ToolError a promise rejects with. */
export async function rejection(promise: Promise<unknown>): Promise<ToolError> {
  try {
    await promise;
  } catch (error) {
    if (ToolError.isInstance(error)) return error;
    throw new Error(`expected a ToolError, got ${String(error)}`);
  }
  throw new Error('expected a rejection');
}

/** A failed result, or an error naming what succeeded. */
export function failure(result: ToolResult) {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.content)}`);
  return result;
}

/** A GET tool without arguments. */
export const getTool = (url: string, extra: Partial<RestToolConfig> = {}): RestToolConfig => ({
  description: 'Gets a thing.',
  method: 'GET',
  url,
  parametersSchema: objectSchema({}),
  ...extra,
});

/** The smallest OpenAPI 3.0 document with these paths. */
export const minimal = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  openapi: '3.0.3',
  info: { title: 'Test', version: '1' },
  servers: [{ url: 'https://api.example.test' }],
  paths,
  ...extra,
});
