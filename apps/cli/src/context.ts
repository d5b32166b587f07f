import { terminalJson } from './output/terminal-text.js';

/** What every command gets: where it runs and its streams. */
export interface CommandContext {
  readonly cwd: string;
  /** `--config`, when given. */
  readonly configPath: string | undefined;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly stdin: NodeJS.ReadStream;
}

/** Writes a line to a stream. */
export function writeLine(stream: NodeJS.WritableStream, text = ''): void {
  stream.write(`${text}\n`);
}

/**
 * Writes a value as pretty JSON (for `--json`). C1 and bidirectional controls in its strings are
 * written as `\u` escapes: the same JSON value, nothing a terminal acts on.
 */
export function writeJson(stream: NodeJS.WritableStream, value: unknown): void {
  stream.write(`${terminalJson(JSON.stringify(value, null, 2))}\n`);
}
