import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CliError, usageError } from '../output/cli-error.js';

/** The most arguments read from stdin or an `@file`. */
const MAX_ARGUMENT_BYTES = 16 * 1024 * 1024;

/** Reads a stream to its end, or fails with `tooLarge` as soon as it passes the limit. */
async function readBounded(stream: AsyncIterable<unknown>, tooLarge: () => Error): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_ARGUMENT_BYTES) throw tooLarge();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function readStdin(stdin: NodeJS.ReadStream): Promise<string> {
  return readBounded(stdin, () =>
    usageError('arguments on stdin exceed 16 MiB', 'pass a smaller JSON object'),
  );
}

/**
 * Reads an `--args @file`. A pipe (`--args @<(command)`) is read as it comes; the size of a
 * regular file is checked before it is read, and a device that never ends (`/dev/zero`) stops at
 * the limit.
 */
async function readArgumentsFile(file: string, shown: string): Promise<string> {
  const tooLarge = (): Error =>
    usageError(`arguments file ${shown} is larger than 16 MiB`, 'pass a smaller JSON object');
  const info = await stat(file);
  if (info.isFile() && info.size > MAX_ARGUMENT_BYTES) throw tooLarge();
  const stream = createReadStream(file);
  try {
    return await readBounded(stream, tooLarge);
  } finally {
    stream.destroy();
  }
}

function parseObject(text: string, where: string): Record<string, unknown> {
  // a UTF-8 byte order mark (editors on Windows write one) is not part of the JSON
  const json = text.replace(/^\uFEFF/, '');
  if (json.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw usageError(
      `arguments from ${where} are not valid JSON: ${(error as Error).message}`,
      `quote the object for your shell, for example --args '{"path":"README.md"}'`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw usageError(
      `arguments from ${where} must be a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`,
      'wrap them in an object: {"name": value}',
    );
  }
  return value as Record<string, unknown>;
}

/** The arguments of `tools call`: `--args JSON`, `--args @file`, `--args -` or piped stdin, else `{}`. */
export async function readCallArguments(
  argsOption: string | undefined,
  context: { cwd: string; stdin: NodeJS.ReadStream },
): Promise<Record<string, unknown>> {
  if (argsOption === undefined) {
    if (context.stdin.isTTY) return {};
    return parseObject(await readStdin(context.stdin), 'stdin');
  }
  if (argsOption === '-') return parseObject(await readStdin(context.stdin), 'stdin');
  if (argsOption.startsWith('@')) {
    if (argsOption === '@')
      throw usageError('--args @ needs a file name after the @', 'for example --args @args.json');
    const file = resolve(context.cwd, argsOption.slice(1));
    let text: string;
    try {
      text = await readArgumentsFile(file, argsOption.slice(1));
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw usageError(
        `cannot read arguments file ${argsOption.slice(1)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        'check the path after @',
      );
    }
    return parseObject(text, argsOption.slice(1));
  }
  return parseObject(argsOption, '--args');
}
