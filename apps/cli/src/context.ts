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

/** Writes a value as pretty JSON (for `--json`). */
export function writeJson(stream: NodeJS.WritableStream, value: unknown): void {
  stream.write(`${JSON.stringify(value, null, 2)}\n`);
}
