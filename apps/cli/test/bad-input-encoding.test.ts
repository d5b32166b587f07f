import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, baseEnv, finished, runCli, tempDir } from './helpers.js';

// Input that is not UTF-8 is refused, naming the byte and line. Decoding it with replacement
// characters would run the call (or load the config) with other text than the file holds:
// `café.txt` in Latin-1 would become `caf\uFFFD.txt`, and a `write` would store that.
let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
  await writeFile(join(dir.path, 'notes.txt'), 'first line\nsecond line\n');
});
afterAll(() => dir.cleanup());

const BOM = '\uFEFF';

/** `{"path":"out.txt","content":"caf\xe9"}` with a Latin-1 é: not UTF-8 at byte 34. */
const LATIN1 = Buffer.concat([
  Buffer.from('{"path":"out.txt",\n"content":"caf'),
  Buffer.from([0xe9]),
  Buffer.from('"}'),
]);

/** `{}` in UTF-16 little-endian with its byte order mark, as Windows PowerShell 5 writes `>`. */
const UTF16 = Buffer.from('\ufeff{"path":"a.txt"}', 'utf16le');

async function runWithStdin(
  args: readonly string[],
  input: Buffer,
): Promise<Awaited<ReturnType<typeof finished>>> {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [BIN, ...args], { cwd: dir.path, env: baseEnv(), stdio: 'pipe' });
  const outcome = finished(child);
  child.stdin.end(input);
  return outcome;
}

describe('arguments that are not UTF-8', () => {
  it('are INVALID_ARGUMENTS naming the byte and line, from a file and from stdin, and nothing is written', async () => {
    await writeFile(join(dir.path, 'latin1.json'), LATIN1);
    const [fromFile, fromStdin] = await Promise.all([
      runCli(['tools', 'call', 'write', '--args', '@latin1.json', '--json'], { cwd: dir.path }),
      runWithStdin(['tools', 'call', 'write'], LATIN1),
    ]);
    expect(fromFile.code).toBe(2);
    expect(fromFile.stderr).toContain(
      'INVALID_ARGUMENTS: arguments file latin1.json is not valid UTF-8 at byte 34 (line 2)',
    );
    expect((JSON.parse(fromFile.stdout) as { error: { code: string } }).error.code).toBe('INVALID_ARGUMENTS');
    expect(fromStdin.code).toBe(2);
    expect(fromStdin.stderr).toContain(
      'INVALID_ARGUMENTS: arguments on stdin are not valid UTF-8 at byte 34',
    );
    await expect(readFile(join(dir.path, 'out.txt'))).rejects.toThrow(/ENOENT/);
  });

  it('in UTF-16 (PowerShell) are refused saying to save them as UTF-8', async () => {
    await writeFile(join(dir.path, 'utf16.json'), UTF16);
    const outcome = await runCli(['tools', 'call', 'read', '--args', '@utf16.json'], { cwd: dir.path });
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(/INVALID_ARGUMENTS: arguments file utf16\.json is UTF-16/);
    expect(outcome.stderr).toMatch(/hint: save it as UTF-8/);
  });

  it('that are UTF-8, a replacement character and a byte order mark included, run', async () => {
    await writeFile(join(dir.path, 'caf\u00e9 \ufffd.txt'), 'accented\n');
    await writeFile(join(dir.path, 'good.json'), `\ufeff${JSON.stringify({ path: 'caf\u00e9 \ufffd.txt' })}`);
    const outcome = await runCli(['tools', 'call', 'read', '--args', '@good.json'], { cwd: dir.path });
    expect(outcome.stderr).not.toContain('error');
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain('accented');
  });

  it('reads an arguments file that starts with a UTF-8 byte order mark', async () => {
    await writeFile(join(dir.path, 'bom-args.json'), `${BOM}${JSON.stringify({ path: 'notes.txt' })}`);
    const { code, stdout } = await runCli(['tools', 'call', 'read', '--args', '@bom-args.json'], {
      cwd: dir.path,
    });
    expect(code).toBe(0);
    expect(stdout).toContain('first line');
  });
});

describe('a config that is not UTF-8', () => {
  it('is CONFIG_INVALID naming the byte and line', async () => {
    await writeFile(
      join(dir.path, 'latin1.yaml'),
      Buffer.concat([
        Buffer.from('builtin: { workspace: ., tools: [read] }\npolicy: { deny: ["gr'),
        Buffer.from([0xe9, 0x70]),
        Buffer.from('"] }\n'),
      ]),
    );
    await writeFile(join(dir.path, 'utf16.json'), UTF16);
    const [validate, list, utf16] = await Promise.all([
      runCli(['--config', 'latin1.yaml', 'config', 'validate'], { cwd: dir.path }),
      runCli(['--config', 'latin1.yaml', 'tools', 'list', '--json'], { cwd: dir.path }),
      runCli(['--config', 'utf16.json', 'config', 'validate'], { cwd: dir.path }),
    ]);
    expect(validate.code).toBe(2);
    expect(validate.stderr).toMatch(
      /CONFIG_INVALID: config .*latin1\.yaml is not valid UTF-8 at byte 62 \(line 2\)/,
    );
    expect(list.code).toBe(2);
    expect((JSON.parse(list.stdout) as { error: { code: string } }).error.code).toBe('CONFIG_INVALID');
    expect(utf16.code).toBe(2);
    expect(utf16.stderr).toMatch(/CONFIG_INVALID: config .*utf16\.json is UTF-16/);
  });
});

describe('a config that starts with a byte order mark', () => {
  it('reads a JSON config saved with a UTF-8 byte order mark', async () => {
    const config = { builtin: { workspace: '.', tools: ['read', 'write'] } };
    await writeFile(join(dir.path, 'bom.config.json'), `${BOM}${JSON.stringify(config)}`);
    const { code, stdout, stderr } = await runCli(
      ['--config', 'bom.config.json', 'tools', 'list', '--json'],
      {
        cwd: dir.path,
      },
    );
    expect(stderr).not.toContain('CONFIG_INVALID');
    expect(code).toBe(0);
    const names = (JSON.parse(stdout) as { name: string }[]).map((tool) => tool.name);
    expect(names).toContain('write');
  });
});
