import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, writeJsonFile } from './helpers.js';

// Hostile keys and depth: `__proto__`, `constructor` and `toString` as names
// and argument keys, arguments nested past what can be sent on.
const ECHO_SERVER = fileURLToPath(new URL('./fixtures/echo-json-server.mjs', import.meta.url));
let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
  // servers named after Object.prototype members: a plain-object lookup would find those instead
  const entry = { command: process.execPath, args: [ECHO_SERVER] };
  await writeJsonFile(dir.path, 'toolplane.config.json', {
    mcpServers: { constructor: entry, toString: entry },
    builtin: false,
  });
});
afterAll(() => dir.cleanup());

const nested = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('tools call --args with hostile keys', () => {
  it('reaches the tool as sent: __proto__, constructor and toString stay keys', async () => {
    const args =
      '{"value":{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}},"toString":"s","list":[{"__proto__":null}]}}';
    const [viaConstructor, viaToString, viaStdin] = await Promise.all([
      runCli(['tools', 'call', 'constructor__echo_json', '--args', args], { cwd: dir.path }),
      runCli(['tools', 'call', 'toString__echo_json', '--args', args], { cwd: dir.path }),
      runCli(['tools', 'call', 'constructor__echo_json', '--args', '-'], { cwd: dir.path, input: args }),
    ]);
    const sent = JSON.stringify((JSON.parse(args) as { value: unknown }).value);
    for (const outcome of [viaConstructor, viaToString, viaStdin]) {
      expect(outcome.stderr).not.toMatch(/INTERNAL|at .*\.js:\d+/);
      expect(outcome.code).toBe(0);
      expect(outcome.stdout.split('\n')[0]).toBe(sent);
    }
  });
});

describe('tools call --args nested deeper than a call can carry', () => {
  it('is INVALID_ARGUMENTS at the level past 1000 (100,000 deep, from --args, @file and stdin), never a stack overflow', async () => {
    const deep = `{"value":${nested(100_000)}}`;
    await writeFile(join(dir.path, 'deep.json'), deep);
    const outcomes = await Promise.all([
      runCli(['tools', 'call', 'constructor__echo_json', '--args', `{"value":${nested(1000)}}`], {
        cwd: dir.path,
      }),
      runCli(['tools', 'call', 'constructor__echo_json', '--args', '@deep.json'], { cwd: dir.path }),
      runCli(['tools', 'call', 'constructor__echo_json', '--args', '-'], { cwd: dir.path, input: deep }),
    ]);
    for (const outcome of outcomes) {
      expect(outcome.code).toBe(2);
      expect(outcome.stderr).toMatch(
        /toolplane: error: INVALID_ARGUMENTS: arguments from \S+ nest deeper than 1000 levels \(line 1, column 1009\)/,
      );
      expect(outcome.stderr).not.toContain('Maximum call stack');
      expect(outcome.stderr).toContain('hint: flatten the data');
    }
  });

  it('carries 1000 levels (the top object and 999 arrays) to the tool as sent', async () => {
    const value = nested(999);
    const outcome = await runCli(
      ['tools', 'call', 'constructor__echo_json', '--args', `{"value":${value}}`],
      {
        cwd: dir.path,
      },
    );
    expect(outcome.stderr).not.toMatch(/INTERNAL/);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout.split('\n')[0]).toBe(value);
  });
});

describe('"__proto__" as a name in a config', () => {
  it('is CONFIG_INVALID at each map of our file that would drop it (JSON and YAML), not a valid config', async () => {
    const json = join(dir.path, 'proto.json');
    // text, not an object literal: `{ __proto__: x }` in JavaScript sets the prototype, no key
    const server = JSON.stringify({ command: process.execPath, args: [ECHO_SERVER] });
    await writeFile(
      json,
      [
        '{',
        `  "mcpServers": { "__proto__": ${server} },`,
        '  "openapi": [{ "namespace": "api", "source": "api.json", "credentials": { "__proto__": { "token": "t" } } }],',
        '  "policy": { "agents": { "__proto__": { "allow": ["read"] } }, "channels": { "toString": { "allow": ["read"] } } },',
        '  "builtin": false',
        '}',
      ].join('\n'),
    );
    const yaml = join(dir.path, 'proto.yaml');
    await writeFile(
      yaml,
      [
        'rest:',
        '  - namespace: web',
        '    tools:',
        '      __proto__: { description: d, method: GET, url: "http://127.0.0.1:9/", parametersSchema: {} }',
        'builtin: false',
        '',
      ].join('\n'),
    );
    const [list, validate, yamlList] = await Promise.all([
      runCli(['-c', 'proto.json', 'tools', 'list'], { cwd: dir.path }),
      runCli(['-c', 'proto.json', 'config', 'validate'], { cwd: dir.path }),
      runCli(['-c', 'proto.yaml', 'tools', 'list'], { cwd: dir.path }),
    ]);
    expect(list.code).toBe(2);
    expect(list.stderr).toMatch(
      /CONFIG_INVALID: invalid config: proto\.json:\d+:\d+ {2}\S+__proto__ {2}the key "__proto__" cannot be used/,
    );
    expect(validate.code).toBe(2);
    for (const path of [
      'mcpServers.__proto__',
      'openapi[0].credentials.__proto__',
      'policy.agents.__proto__',
    ])
      expect(validate.stdout).toMatch(
        new RegExp(`^proto\\.json:\\d+:\\d+ {2}${path.replace(/[.[\]]/g, '\\$&')} {2}`, 'm'),
      );
    expect(validate.stdout).not.toContain('channels.toString');
    expect(yamlList.code).toBe(2);
    expect(yamlList.stderr).toContain(
      'proto.yaml:4:7  rest[0].tools.__proto__  the key "__proto__" cannot be used',
    );
  });

  it('is CONFIG_INVALID for a server of a client file too, not a server left out without a word', async () => {
    // only mcpServers and a key of the client's own: read as the client's file
    await writeJsonFile(dir.path, 'client.json', {
      mcpServers: JSON.parse(
        `{"__proto__": ${JSON.stringify({ command: process.execPath, args: [ECHO_SERVER] })}}`,
      ),
      theme: 'dark',
    });
    const outcome = await runCli(['-c', 'client.json', 'tools', 'list'], { cwd: dir.path });
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(/CONFIG_INVALID: invalid config: mcpServers\.__proto__: .*reserved name/);
  });

  it('keeps a "__proto__" key of a JSON config a key (an unknown field), not the config\'s prototype', async () => {
    const sub = join(dir.path, 'proto');
    await mkdir(sub, { recursive: true });
    const config = '{"__proto__":{"builtin":{"workspace":"/","tools":"all"}}}';
    await writeFile(join(sub, 'toolplane.config.json'), config);
    const { code, stdout, stderr } = await runCli(['tools', 'list', '--json'], { cwd: sub });
    expect(stdout).not.toContain('bash');
    expect(code).toBe(2);
    expect(stderr).toContain(
      'toolplane: error: CONFIG_INVALID: invalid config: toolplane.config.json:1:2  __proto__  unknown field "__proto__"',
    );
  });
});

describe('serve mcp given tools/call arguments with a "__proto__" key', () => {
  it('answers -32602 for one at the top of the arguments (the SDK would drop it) and carries nested ones as sent', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      },
    };
    const value = '{"__proto__":{"a":1},"constructor":2,"toString":[3]}';
    const lines = [
      JSON.stringify(init),
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"constructor__echo_json","arguments":{"value":1,"__proto__":{"value":"hijack"}}}}`,
      `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"constructor__echo_json","arguments":{"value":${value}}}}`,
      '',
    ];
    const outcome = await runCli(['serve', 'mcp', '--stdio'], { cwd: dir.path, input: lines.join('\n') });
    expect(outcome.code).toBe(0);
    const answers = new Map(
      outcome.stdout
        .trim()
        .split('\n')
        .map(
          (line) =>
            JSON.parse(line) as {
              id: number;
              error?: { code: number; message: string };
              result?: { content: { text: string }[] };
            },
        )
        .map((answer) => [answer.id, answer]),
    );
    expect(answers.get(2)?.error?.code).toBe(-32602);
    expect(answers.get(2)?.error?.message).toMatch(
      /params\.arguments: the key "__proto__" cannot be carried/,
    );
    expect(answers.get(3)?.result?.content[0]?.text).toBe(value);
  });
});
