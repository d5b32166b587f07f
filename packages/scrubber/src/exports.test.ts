import { describe, expect, it } from 'vitest';
import * as root from './index.js';
import * as testing from './testing/index.js';

describe('public surface', () => {
  it('pins the export lists', () => {
    expect(Object.keys(root).sort()).toEqual([
      'ALPHABETS',
      'DEFAULT_RULES',
      'base64Cores',
      'createScrubber',
      'isPlaceholder',
      'looksRandom',
      'scrubberMiddleware',
      'secretVariants',
    ]);
    expect(Object.keys(testing).sort()).toEqual(['ALPHABETS', 'adversarialInputs', 'createFakeSource']);
  });
});
