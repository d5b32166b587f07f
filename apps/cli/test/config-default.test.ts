import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/config/default-config.js';
import { configSchema } from '../src/config/schema.js';

describe('the config of a directory without one', () => {
  it('is what the config schema makes of the read-only built-in tools on the directory', () => {
    expect(defaultConfig()).toEqual(configSchema.parse({ builtin: { workspace: '.', tools: 'read-only' } }));
  });

  it('is a new object on every call', () => {
    const first = defaultConfig();
    expect(defaultConfig()).not.toBe(first);
    expect(defaultConfig().limits).not.toBe(first.limits);
  });
});
