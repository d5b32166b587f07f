import { describe, expect, it } from 'vitest';
import * as cli from '../src/index.js';

describe('@toolplane/cli exports', () => {
  it('exports exactly its public names', () => {
    expect(Object.keys(cli).sort()).toEqual([
      'CONFIG_FILE_NAMES',
      'CliError',
      'EXIT_CODES',
      'configSchema',
      'createProgram',
      'loadConfig',
      'readConfig',
      'runCli',
    ]);
  });

  it('fills safe defaults into an empty config', () => {
    const config = cli.configSchema.parse({});
    expect(config.scrubber.enabled).toBe(true);
    expect(config.limits.maxOutputBytes).toBe(64 * 1024);
    expect(config.limits.timeoutMs).toBe(120_000);
    expect(config.policy).toEqual({});
  });
});
