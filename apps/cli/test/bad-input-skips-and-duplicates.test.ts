import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exited,
  gatewayUrl,
  initializeBody,
  isAlive,
  runCli,
  startCli,
  tempDir,
  waitFor,
  writeJsonFile,
} from './helpers.js';

// A hostile user of the sixth sweep: what the packages report reaches the user, and a client
// that hangs up does not leave its call running.
let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
  // one operation the importer skips (its parameter schema is no JSON Schema), one it keeps
  await writeJsonFile(dir.path, 'api.json', {
    openapi: '3.0.3',
    info: { title: 'Broken', version: '1' },
    servers: [{ url: 'http://127.0.0.1:9/v1' }],
    paths: {
      '/fine': {
        get: { operationId: 'fine', parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }] },
      },
      '/bad': {
        get: { operationId: 'bad', parameters: [{ name: 'p', in: 'query', schema: { type: 'strin' } }] },
      },
    },
  });
  await writeJsonFile(dir.path, 'toolplane.config.json', {
    openapi: [{ namespace: 'api', source: 'api.json' }],
  });
});
afterAll(() => dir.cleanup());

describe('an OpenAPI document with an operation the importer skips', () => {
  const skipped = /warning: .*api: skipped GET \/bad: .*not a valid JSON Schema/;

  it('is named by tools list, on stderr, with and without --json', async () => {
    const [text, json] = await Promise.all([
      runCli(['tools', 'list'], { cwd: dir.path }),
      runCli(['tools', 'list', '--json'], { cwd: dir.path }),
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('api__fine');
    expect(text.stdout).not.toContain('api__bad');
    expect(text.stderr).toMatch(skipped);
    expect(json.code).toBe(0);
    const names = (JSON.parse(json.stdout) as { name: string }[]).map((tool) => tool.name);
    expect(names).toContain('api__fine');
    expect(json.stderr).toMatch(skipped);
  });

  it('is named by doctor, in the table and in --json', async () => {
    const [text, json] = await Promise.all([
      runCli(['doctor'], { cwd: dir.path }),
      runCli(['doctor', '--json'], { cwd: dir.path }),
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('1 warning');
    expect(text.stdout + text.stderr).toMatch(skipped);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as { providers: { provider: string; warnings?: string[] }[] };
    const row = report.providers.find((provider) => provider.provider === 'api');
    expect(row?.warnings?.join('\n')).toMatch(/skipped GET \/bad: .*not a valid JSON Schema/);
  });

  it('is named by openapi import, which imports the rest', async () => {
    const outcome = await runCli(['openapi', 'import', 'api.json', '--namespace', 'api', '--json'], {
      cwd: dir.path,
    });
    expect(outcome.code).toBe(0);
    const report = JSON.parse(outcome.stdout) as { tools: string[]; warnings: string[] };
    expect(report.tools).toEqual(['fine']);
    expect(report.warnings.join('\n')).toMatch(/skipped GET \/bad/);
  });
});

describe('an HTTP client that disconnects during a call', () => {
  it('cancels the call: the command it started is stopped', async () => {
    const work = await tempDir();
    await writeJsonFile(work.path, 'toolplane.config.json', {
      builtin: { workspace: '.', tools: 'all' },
      policy: { mode: 'bypass' },
    });
    const gateway = startCli(['serve', 'mcp', '--http', '127.0.0.1:0'], { cwd: work.path });
    try {
      const url = await gatewayUrl(gateway);
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const init = await fetch(url, {
        method: 'POST',
        headers,
        body: initializeBody(1),
      });
      const session = { ...headers, 'mcp-session-id': init.headers.get('mcp-session-id') ?? '' };
      await init.text();
      await (
        await fetch(url, {
          method: 'POST',
          headers: session,
          body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        })
      ).text();
      const hangUp = new AbortController();
      const call = fetch(url, {
        method: 'POST',
        headers: session,
        signal: hangUp.signal,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'bash', arguments: { command: 'echo $$ > sleeper.pid; exec sleep 300' } },
        }),
      }).catch((error: unknown) => error);
      const pidFile = join(work.path, 'sleeper.pid');
      expect(
        await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 30_000),
      ).toBe(true);
      const pid = Number(readFileSync(pidFile, 'utf8'));
      expect(isAlive(pid)).toBe(true);
      hangUp.abort();
      await call;
      // before, the command ran on until the call's deadline (120 s by default) with nobody waiting
      expect(await waitFor(() => !isAlive(pid), 20_000)).toBe(true);
      // the gateway serves on
      const ping = await fetch(url, {
        method: 'POST',
        headers: session,
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }),
      });
      expect(await ping.text()).toContain('"id":3');
    } finally {
      gateway.kill('SIGTERM');
      await exited(gateway);
      await work.cleanup();
    }
  });
});

describe('--json when the command fails before it has a result', () => {
  // before, stdout was empty: `toolplane doctor --json | jq` read nothing at all
  it('prints the error as JSON on stdout, with the same code, line on stderr and exit code', async () => {
    const cases: { args: string[]; code: string; exit: number }[] = [
      { args: ['-c', 'missing.json', 'tools', 'list', '--json'], code: 'CONFIG_INVALID', exit: 2 },
      { args: ['-c', 'missing.json', 'doctor', '--json'], code: 'CONFIG_INVALID', exit: 2 },
      { args: ['-c', 'missing.json', 'config', 'validate', '--json'], code: 'CONFIG_INVALID', exit: 2 },
      { args: ['policy', 'explain', 'nosuch', '--json'], code: 'TOOL_NOT_FOUND', exit: 2 },
      { args: ['openapi', 'import', 'nowhere.json', '--json'], code: 'CONFIG_INVALID', exit: 2 },
      {
        args: ['tools', 'call', 'api__fine', '--json', '--args', '{bad'],
        code: 'INVALID_ARGUMENTS',
        exit: 2,
      },
      { args: ['tools', 'list', '--json', '--no-such-option'], code: 'INVALID_ARGUMENTS', exit: 2 },
    ];
    const outcomes = await Promise.all(cases.map(({ args }) => runCli(args, { cwd: dir.path })));
    for (const [index, outcome] of outcomes.entries()) {
      const { args, code, exit } = cases[index] as (typeof cases)[number];
      expect(outcome.code, args.join(' ')).toBe(exit);
      const printed = JSON.parse(outcome.stdout) as { ok: boolean; error: { code: string; message: string } };
      expect(printed.ok, args.join(' ')).toBe(false);
      expect(printed.error.code, args.join(' ')).toBe(code);
      expect(printed.error.message.length).toBeGreaterThan(0);
      expect(outcome.stderr).toContain(`toolplane: error: ${code}: `);
    }
  });

  it('leaves stdout empty without --json, and a value named --json is not the switch', async () => {
    const [plain, value] = await Promise.all([
      runCli(['-c', 'missing.json', 'doctor'], { cwd: dir.path }),
      runCli(['-c', 'missing.json', 'tools', 'list', '--agent', 'x', '--', '--json'], { cwd: dir.path }),
    ]);
    expect(plain.code).toBe(2);
    expect(plain.stdout).toBe('');
    expect(value.code).toBe(2);
    expect(value.stdout).toBe('');
  });
});

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
