import type { ToolplaneConfig } from './schema.js';

/**
 * The config of a directory without one: the read-only built-in tools on it, and the schema's
 * defaults for the rest. Written out rather than parsed, so a command with no config file never
 * builds the config schema; `test/config-default.test.ts` checks it against the schema.
 */
export function defaultConfig(): ToolplaneConfig {
  return {
    builtin: { workspace: '.', tools: 'read-only' },
    policy: {},
    limits: {
      timeoutMs: 120_000,
      startTimeoutMs: 60_000,
      maxOutputBytes: 65_536,
      approvalTimeoutMs: 120_000,
    },
    scrubber: { enabled: true },
  };
}
