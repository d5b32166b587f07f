import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, writeJsonFile } from './helpers.js';

// Text a server writes (a tool description, a result, an error, a stderr tail, an OpenAPI
// document's title and paths) could, printed as it is, clear the operator's screen, write the
// clipboard (OSC 52), hide a link (OSC 8), move the cursor over what was printed or reorder text
// (bidi overrides). Every such control is shown as a visible `\u001b` in human-readable output;
// JSON output keeps the exact text (as a JSON value).
const HOSTILE_SERVER = fileURLToPath(new URL('./fixtures/hostile-text-server.mjs', import.meta.url));

/** Control characters a terminal acts on (line feed and tab are text). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what must not be printed
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/** A carriage return that does not end a line (CRLF line ends cannot overwrite anything). */
const LONE_CR = /\r(?!\n)/;

function inert(text: string): void {
  expect(text.replace(/\r\n/g, '\n')).not.toMatch(ACTIVE);
  expect(text).not.toMatch(LONE_CR);
}

let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
  const server = { command: process.execPath, args: [HOSTILE_SERVER] };
  await writeJsonFile(dir.path, 'toolplane.config.json', {
    mcpServers: { hostile: server, crashing: { ...server, env: { HOSTILE_CRASH: '1' } } },
    builtin: false,
  });
});
afterAll(() => dir.cleanup());

describe('text from a server with terminal controls in it', () => {
  it('tools list and doctor show the controls as text; --json keeps the exact description', async () => {
    const [list, json, doctor, doctorJson] = await Promise.all([
      runCli(['tools', 'list'], { cwd: dir.path }),
      runCli(['tools', 'list', '--json'], { cwd: dir.path }),
      runCli(['doctor'], { cwd: dir.path }),
      runCli(['doctor', '--json'], { cwd: dir.path }),
    ]);
    expect(list.code).toBe(0);
    inert(list.stdout);
    inert(list.stderr);
    expect(list.stdout).toMatch(/hostile__shout .*Shouts\. \\u001b\[2J\\u001b\[H cleared \\u001b\]52;c;/);
    expect(list.stdout).toContain('\\u009b2J c1 \\u202egnp.exe bidi over\\u000dwritten');
    // the crashing server's stderr tail, quoted in the warning
    expect(list.stderr).toMatch(/warning: provider crashing did not start: .*fatal: \\u001b\[2J/);
    const tools = JSON.parse(json.stdout) as { name: string; description: string }[];
    const shout = tools.find((tool) => tool.name === 'hostile__shout');
    expect(shout?.description).toContain('\u001b]52;c;cm0gLXJmIH4K\u0007 clipboard');
    expect(shout?.description).toContain('\u009b2J c1 \u202egnp.exe');
    // C1 and bidi controls are written as \u escapes in the JSON text: the same value
    expect(json.stdout).not.toMatch(/[\u0080-\u009f\u202a-\u202e]/);
    expect(doctor.code).toBe(1);
    inert(doctor.stdout);
    expect(doctor.stdout).toMatch(/^crashing\s+mcp\s+FAILED\s.*fatal: \\u001b\[2J/m);
    const report = JSON.parse(doctorJson.stdout) as { providers: { provider: string; detail: string }[] };
    expect(report.providers.find((row) => row.provider === 'crashing')?.detail).toContain('fatal: \u001b[2J');
  });

  it('tools call shows a result and an error with the controls as text, CRLF kept; --json exact', async () => {
    const [shout, refuse, json] = await Promise.all([
      runCli(['tools', 'call', 'hostile__shout'], { cwd: dir.path }),
      runCli(['tools', 'call', 'hostile__refuse'], { cwd: dir.path }),
      runCli(['tools', 'call', 'hostile__shout', '--json'], { cwd: dir.path }),
    ]);
    expect(shout.code).toBe(0);
    inert(shout.stdout);
    inert(shout.stderr);
    expect(shout.stdout).toContain('result: \\u001b[2J\\u001b[H cleared');
    expect(shout.stdout).toContain('\\u001b]8;;https://attacker.example/\\u001b\\docs');
    expect(shout.stdout).toContain('windows line\r\nlast line');
    expect(refuse.code).toBe(1);
    inert(refuse.stdout);
    inert(refuse.stderr);
    expect(`${refuse.stdout}${refuse.stderr}`).toContain('refused: \\u001b[2J');
    const result = JSON.parse(json.stdout) as { content: { text: string }[] };
    expect(result.content[0]?.text).toContain('\u001b[3A\u001b[2K moved \u009b2J');
  });

  it('openapi import shows a document title and a skipped path with the controls as text', async () => {
    let deep = '{"type":"string"}';
    for (let level = 0; level < 200; level++) deep = `{"type":"object","properties":{"a":${deep}}}`;
    const document = `{"openapi":"3.0.3","info":{"title":"Shop\\u001b]52;c;cm0K\\u0007","version":"1\\u001b[2J"},
      "servers":[{"url":"http://127.0.0.1:9"}],"paths":{
      "/ok":{"get":{"operationId":"ok","responses":{"200":{"description":"ok"}}}},
      "/deep\\u001b[2J":{"post":{"operationId":"deep","requestBody":{"content":{"application/json":{"schema":${deep}}}},
      "responses":{"200":{"description":"ok"}}}}}}`;
    await writeFile(join(dir.path, 'shop.json'), document);
    const imported = await runCli(['openapi', 'import', 'shop.json', '--out', 'shop.tools.json'], {
      cwd: dir.path,
    });
    expect(imported.code).toBe(0);
    inert(imported.stderr);
    expect(imported.stderr).toContain('from Shop\\u001b]52;c;cm0K\\u0007 1\\u001b[2J');
    expect(imported.stderr).toMatch(/warning: skipped POST \/deep\\u001b\[2J: /);
  });
});
