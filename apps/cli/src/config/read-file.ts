import { stat } from 'node:fs/promises';
import {
  decodeUtf8,
  INPUT_TIMEOUT_VARIABLE,
  type InputBounds,
  inputTimeout,
  inputTimeoutMs,
  readInputFile,
  unreadableKind,
} from '../input/read-input.js';
import { CliError, configError } from '../output/cli-error.js';

/**
 * The largest config file read. Generous: a client's file given as it is (Claude Code's
 * `~/.claude.json` also keeps its project history) can reach tens of megabytes.
 */
export const MAX_CONFIG_BYTES = 64 * 1024 * 1024;

/**
 * The text of a config file, read within {@link MAX_CONFIG_BYTES} (and the input timeout for a
 * pipe, FIFO or device) and decoded as UTF-8; every failure is `CONFIG_INVALID` naming the file.
 */
export async function readConfigText(file: string): Promise<string> {
  try {
    const info = await stat(file);
    const kind = unreadableKind(info);
    if (kind)
      throw configError(`config ${file} is ${kind}`, 'give --config the path of a .json, .yaml or .yml file');
    // a regular file is checked before it is read: gigabytes would fill memory before failing to
    // parse; a pipe (`--config <(command)`), FIFO or device is read as it comes, up to the same
    // limit, and must end within the input timeout (a FIFO nobody writes to would wait forever)
    const bounds: InputBounds = {
      maxBytes: MAX_CONFIG_BYTES,
      timeoutMs: info.isFile() ? undefined : inputTimeoutMs(),
      tooLarge: () =>
        configError(
          info.isFile()
            ? `config ${file} is ${Math.ceil(info.size / (1024 * 1024))} MiB; a config file may be at most ${MAX_CONFIG_BYTES / (1024 * 1024)} MiB`
            : `config ${file} is larger than ${MAX_CONFIG_BYTES / (1024 * 1024)} MiB, the most a config file may be`,
          'give --config the config file itself (a few kilobytes of JSON or YAML)',
        ),
      tooSlow: (timeoutMs) =>
        inputTimeout(
          `config ${file} did not end within ${timeoutMs} ms (a pipe or FIFO is read until its writer closes it)`,
          `write the config and close the pipe, or give --config a regular file; or set ${INPUT_TIMEOUT_VARIABLE} to wait longer`,
        ),
    };
    return decodeUtf8(await readInputFile(file, info, bounds), (problem) =>
      configError(`config ${file} ${problem}`, 'save it as UTF-8 (JSON and YAML files are UTF-8)'),
    );
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw configError(
      `cannot read config ${file}: ${(error as Error).message}`,
      'check that the file is readable',
    );
  }
}
