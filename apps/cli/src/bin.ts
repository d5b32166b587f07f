#!/usr/bin/env node
// The `toolplane` command. Keep this file's imports light: `toolplane --help` must start fast.
import { runCli } from './program.js';

// A reader that stops early (`toolplane tools list | head -1`) closes the pipe: the rest of the
// output has nowhere to go, which is not an error of the command. Drop it instead of crashing.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

const code = await runCli(process.argv, {
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
});
// Commands close what they started; exit once stdout and stderr are flushed, so a stray handle
// (a keep-alive socket, a stdin listener) cannot keep the process around.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
