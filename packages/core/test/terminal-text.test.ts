import { expect, it } from 'vitest';
import { terminalJson, terminalLine, terminalText } from '../src/terminal-text.js';

const ESC = String.fromCharCode(0x1b);
const BEL = String.fromCharCode(0x07);

it('drops colour sequences and shows every other control as a visible escape', () => {
  const text = `${ESC}[31mred${ESC}[0m ${ESC}[2J ${ESC}]52;c;Zm9v${BEL}`;
  expect(terminalText(text)).toBe('red \\u001b[2J \\u001b]52;c;Zm9v\\u0007');
});

it('keeps line feeds, tabs and CRLF line ends in text but escapes a bare carriage return', () => {
  expect(terminalText('a\tb\r\nc\rd')).toBe('a\tb\r\nc\\u000dd');
});

it('escapes C1 controls, line separators and bidirectional overrides', () => {
  const text = `x${String.fromCharCode(0x9b)}2J y\u2028z \u202eevil\u202c`;
  expect(terminalText(text)).toBe('x\\u009b2J y\\u2028z \\u202eevil\\u202c');
});

it('keeps a line on one line: line breaks are escaped too, tabs kept', () => {
  expect(terminalLine('rm -rf /\n(looks fine)\r\n\tok')).toBe(
    'rm -rf /\\u000a(looks fine)\\u000d\\u000a\tok',
  );
});

it('writes JSON a terminal cannot act on, which parses back to the same value', () => {
  const value = { note: `a${String.fromCharCode(0x85)}b\u2029c\u2066d` };
  const json = terminalJson(JSON.stringify(value));
  expect(json).toBe('{"note":"a\\u0085b\\u2029c\\u2066d"}');
  expect(JSON.parse(json)).toEqual(value);
});

it('leaves plain text alone', () => {
  const text = 'plain text, ünïcödé and emoji 🙂';
  expect(terminalText(text)).toBe(text);
  expect(terminalLine(text)).toBe(text);
});
