/** One-letter escapes bash decodes in `$'...'`, `echo -e` and `printf` alike. */
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
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

/**
 * Backslash escapes as `echo -e` and printf's `%b` read them (`\0NNN` octal) or as a printf
 * format does (`\NNN`); `\c` ends the output. Returns the text and whether `\c` stopped it.
 */
export function decodeEscapes(text: string, format: boolean): { text: string; stopped: boolean } {
  const octal = format ? '[0-7]{1,3}' : '0[0-7]{0,3}';
  const pattern = new RegExp(
    `\\\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|${octal}|c|.)`,
    'gs',
  );
  let out = '';
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    out += text.slice(last, match.index);
    last = match.index + match[0].length;
    const sequence = match[1] as string;
    const head = sequence[0] as string;
    if (head === 'c') return { text: out, stopped: true };
    if (head === 'x' || head === 'u' || head === 'U') {
      const code = Number.parseInt(sequence.slice(1), 16);
      out += code <= 0x10ffff ? String.fromCodePoint(code) : match[0];
    } else if (/[0-7]/.test(head)) out += String.fromCharCode(Number.parseInt(sequence, 8) & 0xff);
    else if (format && head === '"') out += '"';
    else out += SIMPLE_ESCAPES[head] ?? match[0];
  }
  return { text: out + text.slice(last), stopped: false };
}
