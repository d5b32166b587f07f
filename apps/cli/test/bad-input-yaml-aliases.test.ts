import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';

// Huge counts in YAML: many entries that merge one anchor are a plain config (yaml's own guard
// counts 101 uses of an anchor as "a resource exhaustion attack"), while aliases of aliases that
// expand to millions of values are refused.
const STACK_LINE = /^\s+at .+\(?.*:\d+:\d+\)?$/m;

let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(() => dir.cleanup());

describe('a YAML config with 300 servers that merge one anchor', () => {
  it('is valid and every server is read', async () => {
    const lines = ['x-server: &server { command: node, env: { LOG_LEVEL: warn } }', 'mcpServers:'];
    for (let index = 0; index < 300; index++)
      lines.push(`  s${index}: { <<: *server, args: [s${index}.mjs] }`);
    lines.push('builtin: false', '');
    await writeFile(join(dir.path, 'many.yaml'), lines.join('\n'));
    const outcome = await runCli(['-c', 'many.yaml', 'config', 'validate'], { cwd: dir.path });
    expect(outcome.stdout).not.toContain('resource exhaustion');
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/^valid: .*many\.yaml: 300 MCP server\(s\)/m);
  });
});

describe('YAML aliases of aliases that expand past a million values', () => {
  it('is CONFIG_INVALID saying so, with no stack, for a bomb of 9^9 values', async () => {
    const levels = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let level = 1; level < 9; level++)
      levels.push(
        `a${level}: &a${level} [${Array(9)
          .fill(`*a${level - 1}`)
          .join(', ')}]`,
      );
    levels.push('policy: { deny: *a8 }', '');
    await writeFile(join(dir.path, 'bomb.yaml'), levels.join('\n'));
    const outcome = await runCli(['-c', 'bomb.yaml', 'config', 'validate'], { cwd: dir.path });
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).toMatch(
      /^bomb\.yaml:1:1 {2}\(file\) {2}YAML: its aliases expand to more than 1,000,000 values/m,
    );
    expect(outcome.stdout + outcome.stderr).not.toMatch(/\n\s+at .*:\d+:\d+/);
  });

  it('refuses YAML aliases that expand exponentially, as a config error', async () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (let level = 1; level < 7; level++) {
      const name = String.fromCharCode(97 + level);
      const previous = String.fromCharCode(96 + level);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(', ')}]`);
    }
    levels.push('mcpServers: { x: { command: echo, args: *g } }');
    await writeFile(join(dir.path, 'bomb.yaml'), `${levels.join('\n')}\n`);
    const { code, stderr } = await runCli(['--config', 'bomb.yaml', 'tools', 'list'], { cwd: dir.path });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^toolplane: error: CONFIG_INVALID: invalid config: bomb\.yaml:1:1 .*alias/);
    expect(stderr).not.toMatch(STACK_LINE);
  });
});
