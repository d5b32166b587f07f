/**
 * Whether a stream gets colour: never with `NO_COLOR` set (https://no-color.org); `FORCE_COLOR`
 * `0` or `false` turns it off and any other value on, as Node reads it; else on a TTY only.
 */
export function colourEnabled(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return !['0', 'false'].includes(env.FORCE_COLOR.trim().toLowerCase());
  return stream.isTTY === true;
}

/** ANSI styles that turn into plain text when colour is off. */
export interface Style {
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly red: (text: string) => string;
  readonly green: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly cyan: (text: string) => string;
}

const wrap =
  (enabled: boolean, open: number, close: number) =>
  (text: string): string =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;

/** Styles for one stream. */
export function createStyle(stream: NodeJS.WriteStream): Style {
  const enabled = colourEnabled(stream);
  return {
    bold: wrap(enabled, 1, 22),
    dim: wrap(enabled, 2, 22),
    red: wrap(enabled, 31, 39),
    green: wrap(enabled, 32, 39),
    yellow: wrap(enabled, 33, 39),
    cyan: wrap(enabled, 36, 39),
  };
}
