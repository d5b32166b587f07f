import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';

// Keys of a JSON config that JSON.parse or the MCP loader would drop or misplace are reported at
// the key itself, with its line and column.

describe('a JSON config with a key given twice in one object', () => {
  // JSON.parse keeps the last and drops the first: a second timeoutMs, a server pasted twice
  it('is CONFIG_INVALID at the second key, as YAML is, for our file and a client file', async () => {
    const work = await tempDir();
    try {
      const { writeFile } = await import('node:fs/promises');
      await writeFile(
        join(work.path, 'toolplane.config.json'),
        '{\n  "builtin": { "workspace": "." },\n  "limits": { "timeoutMs": 30000, "timeoutMs": 5 }\n}\n',
      );
      await writeFile(
        join(work.path, 'claude.json'),
        '{ "mcpServers": {\n  "a": { "command": "node" },\n  "a": { "command": "nope" }\n} }\n',
      );
      const [validate, list, client] = await Promise.all([
        runCli(['config', 'validate'], { cwd: work.path }),
        runCli(['tools', 'list'], { cwd: work.path }),
        runCli(['-c', 'claude.json', 'config', 'validate'], { cwd: work.path }),
      ]);
      expect(validate.code).toBe(2);
      expect(validate.stdout + validate.stderr).toMatch(
        /toolplane\.config\.json:3:35 .*"timeoutMs" is given twice/,
      );
      expect(list.code).toBe(2);
      expect(list.stderr).toContain('CONFIG_INVALID');
      expect(list.stdout).toBe('');
      expect(client.code).toBe(2);
      expect(client.stdout + client.stderr).toMatch(/claude\.json:3:3 .*"a" is given twice/);
    } finally {
      await work.cleanup();
    }
  });
});

describe('a top-level key the MCP loader refuses in a client file', () => {
  it('is reported at that key, not at the servers key', async () => {
    const work = await tempDir();
    try {
      const { writeFile } = await import('node:fs/promises');
      // an OpenAPI document given as --config: read as a VS Code file because it has "servers"
      await writeFile(join(work.path, 'api.json'), '{\n  "servers": [],\n  "openapi": "3.0.3"\n}\n');
      const outcome = await runCli(['-c', 'api.json', 'config', 'validate', '--json'], { cwd: work.path });
      expect(outcome.code).toBe(2);
      const report = JSON.parse(outcome.stdout) as {
        issues: { line: number; path: string; message: string }[];
      };
      const issue = report.issues.find((entry) => entry.message.includes('"openapi"'));
      expect(issue?.path).toBe('openapi');
      expect(issue?.line).toBe(3);
    } finally {
      await work.cleanup();
    }
  });
});
