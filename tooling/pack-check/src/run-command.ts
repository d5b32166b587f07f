import { spawn } from 'node:child_process';

/** What a finished command left behind. */
export interface CommandOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Options for {@link runCommand}. */
export interface RunCommandOptions {
  cwd: string;
  /** Killed (SIGKILL) after this many milliseconds. */
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs a command to its end and collects its output. Never rejects for a failing command: the
 * caller reads `code`, so an assertion can print stdout and stderr of what went wrong.
 */
export function runCommand(
  command: string,
  args: string[],
  options: RunCommandOptions,
): Promise<CommandOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

/** A one-paragraph account of a command's outcome, for assertion messages. */
export function describeOutcome(label: string, outcome: CommandOutcome): string {
  const how = outcome.timedOut ? 'timed out' : `exited ${outcome.code ?? outcome.signal}`;
  return `${label} ${how}\n--- stdout\n${outcome.stdout.slice(-4000)}\n--- stderr\n${outcome.stderr.slice(-4000)}`;
}
