import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, writeJsonFile } from './helpers.js';

// toolplane.config.json and toolplane.config.yaml side by side: reading one would ignore edits to
// the other without a word, so every command refuses both until --config names one.
let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
  await writeJsonFile(dir.path, 'toolplane.config.json', { builtin: { workspace: '.', tools: ['read'] } });
  await writeFile(
    join(dir.path, 'toolplane.config.yaml'),
    'builtin: { workspace: ., tools: [read, list] }\n',
  );
});
afterAll(() => dir.cleanup());

describe('two config files in the directory', () => {
  it('are CONFIG_INVALID naming both, for every command; --config picks one', async () => {
    const [list, validate, picked] = await Promise.all([
      runCli(['tools', 'list', '--json'], { cwd: dir.path }),
      runCli(['config', 'validate'], { cwd: dir.path }),
      runCli(['--config', 'toolplane.config.yaml', 'tools', 'list', '--json'], { cwd: dir.path }),
    ]);
    for (const outcome of [list, validate]) {
      expect(outcome.code).toBe(2);
      expect(outcome.stderr).toMatch(
        /CONFIG_INVALID: toolplane\.config\.json and toolplane\.config\.yaml are both in .*; which one is the config\?/,
      );
      expect(outcome.stderr).toMatch(/hint: remove or rename the one not meant, or name it with --config/);
    }
    expect((JSON.parse(list.stdout) as { error: { code: string } }).error.code).toBe('CONFIG_INVALID');
    expect(picked.code).toBe(0);
    const names = (JSON.parse(picked.stdout) as { name: string }[]).map((tool) => tool.name);
    expect(names).toContain('list');
  });
});
