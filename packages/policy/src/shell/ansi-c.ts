/** One-letter escapes bash decodes in `$'...'`, `echo -e` and `printf` alike. */
export const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
};

/** ANSI-C quoting also decodes escaped quotes and `\?`. */
const ANSI_ESCAPES: Readonly<Record<string, string>> = {
  ...SIMPLE_ESCAPES,
  "'": "'",
  '"': '"',
  '?': '?',
};

/** The text of an ANSI-C quoted string (`$'\x2fdev'`), its escapes decoded as bash does. */
export function decodeAnsiC(raw: string): string {
  const body = raw.slice(2, -1);
  return body.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (_match, sequence: string) => {
      const head = sequence[0] as string;
      if (head === 'x' || head === 'u' || head === 'U')
        return String.fromCodePoint(Number.parseInt(sequence.slice(1), 16));
      if (/[0-7]/.test(head)) return String.fromCharCode(Number.parseInt(sequence, 8));
      if (head === 'c') return String.fromCharCode((sequence.charCodeAt(1) ?? 64) & 31);
      return ANSI_ESCAPES[sequence] ?? `\\${sequence}`;
    },
  );
}
