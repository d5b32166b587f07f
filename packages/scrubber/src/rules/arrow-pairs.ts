import { isNameCode } from './characters.js';
import { hasCredentialTail } from './key-names.js';

// Pairs written `key => value` in dumps of hashes and arrays: Perl's Data::Dumper
// (`'password' => 'x'`), Ruby's inspect and Rails' parameter logs (`"password"=>"x"`,
// `:password=>"x"`), PHP's var_export (`'password' => 'x'`) and print_r (`[password] => x`).
// Only a quoted, bracketed or symbol key counts: `password => password.trim()` is a function.

const MAX_KEY = 64;

/** The key of the `=>` at `separator`, when it is quoted, in `[...]` or a Ruby symbol. */
export function arrowKey(text: string, separator: number): { key: string; keyStart: number } | undefined {
  let close = separator;
  while (close > 0 && separator - close < 4 && text.charCodeAt(close - 1) === 32) close--;
  const closing = text.charCodeAt(close - 1);
  const quoted = closing === 39 || closing === 34 || closing === 93; // ' " ]
  const keyEnd = quoted ? close - 1 : close;
  if (!hasCredentialTail(text, keyEnd)) return undefined;
  let keyStart = keyEnd;
  while (keyStart > 0 && keyEnd - keyStart < MAX_KEY && isNameCode(text.charCodeAt(keyStart - 1))) keyStart--;
  const opening = text.charCodeAt(keyStart - 1);
  const matches = quoted ? opening === (closing === 93 ? 91 : closing) : opening === 58; // [ or the quote; `:` of a symbol
  return matches && keyStart < keyEnd ? { key: text.slice(keyStart, keyEnd), keyStart } : undefined;
}
