import { describe, expect, it } from 'vitest';
import { importOpenApi } from '../src/index.js';
import { rejection } from './helpers/bad-input.js';

const DEPTH = 100_000;
const head =
  'openapi: 3.0.3\ninfo: {title: t, version: "1"}\nservers: [{url: "https://api.example.test"}]\npaths: {/a: {get: {operationId: a}}}\n';

describe('documents nesting deeper than a parser can follow', () => {
  it('are CONFIG_INVALID saying they nest too deeply, not that the text is broken', async () => {
    const yaml = `${head}x-junk: ${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}\n`;
    const json = `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"x-ref":{"$ref":"other.json"},"x-junk":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}`;
    for (const text of [yaml, json]) {
      const error = await rejection(importOpenApi({ text }, { namespace: 'deep' }));
      // they used to say "not valid YAML or JSON (Maximum call stack size exceeded)" or blame a $ref
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toContain('nests too deeply');
      expect(error.message).not.toContain('call stack');
    }
  });
});
