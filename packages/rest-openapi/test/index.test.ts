import { describe, expect, it } from 'vitest';
import * as entry from '../src/index.js';

describe('public entry', () => {
  it('exports exactly these values', () => {
    expect(Object.keys(entry).sort()).toEqual([
      'MAX_RETRY_AFTER_SECONDS',
      'createOpenApiProvider',
      'createRestProvider',
      'definitionHash',
      'encodeStrict',
      'importOpenApi',
      'parseDuration',
      'readToolConfig',
      'writeToolConfig',
    ]);
  });
});
