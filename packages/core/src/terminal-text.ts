// Text a tool, a server or a model wrote (a description, a result, an error message, a command
// or arguments asked about in an approval) is shown to a person. A hostile or careless source
// can put terminal controls in it: clear the screen (ESC [ 2 J), move the cursor to overwrite what
// was printed, write the clipboard (OSC 52), show a link whose text hides its target (OSC 8), or
// reorder the text with bidirectional overrides. These functions make such text inert wherever
// it goes (a terminal, a pipe, a file that is later `cat`ed).

// biome-ignore lint/suspicious/noControlCharactersInRegex: colour sequences are what is removed
const COLOUR = /\u001b\[[0-9;:]*m/g;
/**
 * C0 controls but tab and line feed (a carriage return only when a line feed does not follow:
 * CRLF line ends cannot overwrite anything), DEL, the C1 controls (U+0080-U+009F, of which U+009B
 * is a CSI some terminals obey), the line and paragraph separators and the bidirectional
 * embedding, override and isolate controls.
 */
const CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is shown escaped
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;
/** The same, with line breaks too: text that must stay on one line (a table cell, a warning). */
const CONTROL_OR_BREAK =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is shown escaped
  /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escaped(char: string): string {
  return `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;
}

/**
 * Text from a tool or server made inert for a terminal: colour sequences are dropped (a coloured
 * logger's output reads as it was meant), every other control character is shown as `\u001b`
 * (so ESC [ 2 J prints as the visible `\u001b[2J`); line feeds and tabs are kept.
 *
 * @example
 * terminalText('\u001b[31mred\u001b[0m\u001b]52;c;Zm9v\u0007') // 'red\\u001b]52;c;Zm9v\\u0007'
 */
export function terminalText(text: string): string {
  return text.replace(COLOUR, '').replace(CONTROL, escaped);
}

/** {@link terminalText} for text that must stay on one line: line breaks are shown as `\u000a` too. */
export function terminalLine(text: string): string {
  return text.replace(COLOUR, '').replace(CONTROL_OR_BREAK, escaped);
}

/**
 * Characters JSON.stringify writes as they are but a terminal may obey (C1 controls, line and
 * paragraph separators, bidirectional controls). Inside a JSON text they can only be in strings.
 */
const JSON_UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text with the characters above written as `\u` escapes: the same JSON value (a parser reads
 * it back unchanged), nothing a terminal acts on. (JSON.stringify already escapes C0 controls.)
 */
export function terminalJson(json: string): string {
  return json.replace(JSON_UNSAFE, escaped);
}
