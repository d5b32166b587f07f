#!/usr/bin/env node
// The `toolplane` command. Keep this file's imports light: `toolplane --help` must start fast.
import { EXIT_CODES } from './output/cli-error.js';
import { runCli } from './program.js';

// A reader that stops early (`toolplane tools list | head -1`) closes the pipe: the rest of the
// output has nowhere to go, which is not an error of the command. Drop it instead of crashing.
// Any other failure to write stdout (`> file` on a full disk: ENOSPC, EIO) lost output the user
// asked for: the command says so and fails, instead of exiting 0 with the output missing.
let lostOutput: NodeJS.ErrnoException | undefined;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') lostOutput ??= error;
});
// stderr that cannot be written leaves nothing to report on
process.stderr.on('error', () => {});

let code = await runCli(process.argv, {
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
});
// Commands close what they started; exit once stdout and stderr are flushed, so a stray handle
// (a keep-alive socket, a stdin listener) cannot keep the process around.
process.stdout.write('', () =>
  // the stream's error event comes after the failed write's callback: let it land first
  setImmediate(() => {
    if (lostOutput) {
      process.stderr.write(
        `toolplane: error: EXECUTION_FAILED: the output could not be written to stdout: ${lostOutput.message}\nhint: free space on the device stdout goes to, or send the output elsewhere\n`,
      );
      if (code === EXIT_CODES.ok) code = EXIT_CODES.toolError;
    }
    process.stderr.write('', () => process.exit(code));
  }),
);
