import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// close() with calls in flight: they all end, and nothing the orchestrator started (a timer, a
// worker thread, a file) keeps the process alive. Checked the way a host would notice it: the
// process that closed the orchestrator exits on its own.

const FIXTURE = fileURLToPath(new URL('./fixtures/close-exits.ts', import.meta.url));

it('a process that closes the orchestrator with calls running, queued, backing off and in a worker exits on its own', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@toolplane/source', FIXTURE], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    output += text;
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    errors += text;
  });
  // bounded: a child still alive after 30 s is killed, and the test fails saying so
  const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  clearTimeout(guard);
  expect({ code, signal, errors: errors.split('\n').filter((line) => /Error/.test(line)) }).toEqual({
    code: 0,
    signal: null,
    errors: [],
  });
  expect(JSON.parse(output.trim())).toEqual([
    'CANCELLED',
    'CANCELLED',
    'CANCELLED',
    'CANCELLED',
    'PROVIDER_UNAVAILABLE',
  ]);
});
