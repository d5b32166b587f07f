import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  decodeUtf8,
  INPUT_TIMEOUT_VARIABLE,
  type InputBounds,
  inputTimeout,
  inputTimeoutMs,
  readInputFile,
  readStreamBounded,
  unreadableKind,
} from '../input/read-input.js';
import { CliError, usageError } from '../output/cli-error.js';
import { MAX_ARGUMENT_DEPTH, argumentsShape } from './args-shape.js';

/** The most arguments read from stdin or an `@file`. */
const MAX_ARGUMENT_BYTES = 16 * 1024 * 1024;

const WAIT_LONGER = `or set ${INPUT_TIMEOUT_VARIABLE} to wait longer`;

/**
 * Reads the arguments on stdin: at most 16 MiB, and, unless stdin is a terminal (a person
 * typing), ended within the input timeout. `explicit`: asked for with `--args -` (else read
 * because stdin is not a terminal).
 */
async function readStdin(stdin: NodeJS.ReadStream, explicit: boolean): Promise<string> {
  const bounds: InputBounds = {
    maxBytes: MAX_ARGUMENT_BYTES,
    timeoutMs: stdin.isTTY ? undefined : inputTimeoutMs(),
    tooLarge: () => usageError('arguments on stdin exceed 16 MiB', 'pass a smaller JSON object'),
    tooSlow: (timeoutMs) =>
      inputTimeout(
        `arguments on stdin did not end within ${timeoutMs} ms (stdin is read until it is closed)`,
        explicit
          ? `close stdin after writing the JSON, or pass --args JSON; ${WAIT_LONGER}`
          : `stdin is not a terminal, so it is read for the arguments: close it (for example </dev/null), or pass --args JSON; ${WAIT_LONGER}`,
      ),
  };
  return decodeUtf8(await readStreamBounded(stdin, bounds), (problem) =>
    usageError(
      `arguments on stdin ${problem.replace(/^is/, 'are')}`,
      'send them as UTF-8, or pass --args JSON',
    ),
  );
}

/**
 * Reads an `--args @file`. The size of a regular file is checked before it is read; a pipe
 * (`--args @<(command)`), FIFO or device is read as it comes, stops at the limit (`/dev/zero`)
 * and must end within the input timeout (a FIFO nobody writes to would wait forever).
 */
async function readArgumentsFile(file: string, shown: string): Promise<string> {
  const info = await stat(file);
  const kind = unreadableKind(info);
  if (kind) throw usageError(`arguments file ${shown} is ${kind}`, 'give --args @ the path of a JSON file');
  const bounds: InputBounds = {
    maxBytes: MAX_ARGUMENT_BYTES,
    timeoutMs: info.isFile() ? undefined : inputTimeoutMs(),
    tooLarge: () => usageError(`arguments file ${shown} is larger than 16 MiB`, 'pass a smaller JSON object'),
    tooSlow: (timeoutMs) =>
      inputTimeout(
        `arguments file ${shown} did not end within ${timeoutMs} ms (a pipe or FIFO is read until its writer closes it)`,
        `write the JSON and close the pipe, pass --args JSON instead, ${WAIT_LONGER}`,
      ),
  };
  return decodeUtf8(await readInputFile(file, info, bounds), (problem) =>
    usageError(`arguments file ${shown} ${problem}`, 'save it as UTF-8 (JSON text is UTF-8)'),
  );
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
  const { duplicate: twice, tooDeep } = argumentsShape(json);
  if (tooDeep)
    throw usageError(
      `arguments from ${where} nest deeper than ${MAX_ARGUMENT_DEPTH} levels (line ${tooDeep.line}, column ${tooDeep.column}), more than a tool call can carry`,
      'flatten the data, or put it in a file the tool reads',
    );
  if (twice)
    throw usageError(
      `arguments from ${where}: the key ${JSON.stringify(twice.key)} is given twice in one object (line ${twice.line}, column ${twice.column}), so the first would be dropped`,
      'keep one of them',
    );
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
    return parseObject(await readStdin(context.stdin, false), 'stdin');
  }
  // `@-` is stdin too, as curl reads `-d @-`
  if (argsOption === '-' || argsOption === '@-')
    return parseObject(await readStdin(context.stdin, true), 'stdin');
  if (argsOption.startsWith('@')) {
    if (argsOption === '@')
      throw usageError('--args @ needs a file name after the @', 'for example --args @args.json');
    const file = resolve(context.cwd, argsOption.slice(1));
    let text: string;
    try {
      text = await readArgumentsFile(file, argsOption.slice(1));
    } catch (error) {
      if (error instanceof CliError) throw error;
      const name = argsOption.slice(1);
      throw usageError(
        `cannot read arguments file ${name}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        // the shell expands ~ only at the start of a word, and the word starts with @
        name.startsWith('~/')
          ? `~ is not expanded after @: write --args @"$HOME/${name.slice(2)}"`
          : 'check the path after @',
      );
    }
    return parseObject(text, argsOption.slice(1));
  }
  return parseObject(argsOption, '--args');
}
