import { ALPHABETS } from '../alphabets.js';
import { isPlaceholder } from '../placeholder.js';
import type { RuleMatch, SecretRule } from '../types.js';
import { isWhitespace } from './characters.js';
import { credentialKind } from './key-names.js';

// Credentials in XML: an element named like one (`<password>...</password>`, Maven's
// settings.xml, WS-Security's `<wsse:Password>`), an element or tag whose `key`/`name` attribute
// names one (Java's properties XML `<entry key="db.password">...</entry>`, .NET's
// `<add key="ApiKey" value="..."/>`, Spring's `<property name="password" value="..."/>`).

const MAX_VALUE = 512;
const MAX_TAG = 256;
const MAX_NAME = 64;

/** A `key="..."` or `name="..."` attribute of a tag; group 1 is the name it gives. */
const KEY_ATTRIBUTE = /(?:^|\s)(?:key|name)\s{0,4}=\s{0,4}["']([^"'<>]{1,64})["']/;

/** The regexes the rule runs, for the regex safety test. */
export const MARKUP_PATTERNS: readonly RegExp[] = [KEY_ATTRIBUTE];

function isNameCode(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 46 ||
    code === 45 ||
    code === 58
  );
}

/** The `<` at or before `from`, looked for at most {@link MAX_TAG} characters back (no `>` between); -1 when there is none. */
function tagOpen(text: string, from: number): number {
  for (let cursor = from; cursor >= 0 && from - cursor <= MAX_TAG; cursor--) {
    const code = text.charCodeAt(cursor);
    if (code === 60) return cursor;
    if (code === 62 && cursor !== from) return -1;
  }
  return -1;
}

const CDATA_OPEN = '<![CDATA[';

/**
 * The CDATA section that ends right before the closing tag at `close` (blanks between allowed):
 * where its `<![CDATA[` begins and its text's span. Looked for at most {@link MAX_VALUE}
 * characters back, so a run of `]]></x>` without sections costs no more than its length.
 */
function cdataBefore(text: string, close: number): { begin: number; start: number; end: number } | undefined {
  let end = close;
  while (end > 0 && close - end < 64 && isWhitespace(text.charCodeAt(end - 1))) end--;
  if (!text.startsWith(']]>', end - 3)) return undefined;
  end -= 3;
  const from = Math.max(0, end - MAX_VALUE - CDATA_OPEN.length);
  const window = text.slice(from, end);
  let begin = window.lastIndexOf(CDATA_OPEN);
  if (begin === -1) return undefined;
  // A value holding `]]>` is written as sections back to back (`...]]]]><![CDATA[>...`): the
  // value runs from the first of them.
  while (begin >= 3 && window.startsWith(']]>', begin - 3)) {
    const previous = window.lastIndexOf(CDATA_OPEN, begin - 3);
    if (previous === -1) break;
    begin = previous;
  }
  const start = from + begin + CDATA_OPEN.length;
  return end > start ? { begin: from + begin, start, end } : undefined;
}

/** The kind named by a tag's text (`password`, `entry key="db.password"`), or undefined. */
function tagKind(tag: string, name: string): string | undefined {
  const kind = credentialKind(name);
  if (kind !== undefined) return kind;
  const attribute = KEY_ATTRIBUTE.exec(tag.slice(name.length));
  return attribute?.[1] === undefined ? undefined : credentialKind(attribute[1]);
}

/** Whether a value can be a credential: 4 characters or more, no placeholder, no boolean. */
function acceptable(value: string): boolean {
  return value.length >= 4 && !isPlaceholder(value) && !/^(?:true|false|null|none)$/i.test(value);
}

/** The text of the element that `</` at `close` ends, when its tag names a credential. */
function matchElement(text: string, close: number): RuleMatch | undefined {
  let nameEnd = close + 2;
  while (nameEnd - close - 2 < MAX_NAME && isNameCode(text.charCodeAt(nameEnd))) nameEnd++;
  if (nameEnd === close + 2 || text.charCodeAt(nameEnd) !== 62) return undefined;
  const name = text.slice(close + 2, nameEnd);
  // The value: back to the `>` of the opening tag, with no tag between; CDATA sections are read
  // past (`<password>ab<![CDATA[cd]]>ef</password>` mixes text and a section).
  let open = close;
  let sections = 0;
  while (open > 0 && close - open < MAX_VALUE) {
    const code = text.charCodeAt(open - 1);
    if (code === 62) {
      if (!text.startsWith(']]>', open - 3)) break;
      const from = Math.max(0, close - MAX_VALUE);
      const begin = text.slice(from, open - 3).lastIndexOf(CDATA_OPEN);
      if (begin === -1) return undefined;
      open = from + begin;
      sections++;
      continue;
    }
    if (code === 60) return undefined;
    open--;
  }
  if (text.charCodeAt(open - 1) !== 62) return undefined;
  const tagEnd = open - 1;
  const tagStart = tagOpen(text, tagEnd);
  if (tagStart === -1 || text.charCodeAt(tagEnd - 1) === 47) return undefined;
  const tag = text.slice(tagStart + 1, tagEnd);
  if (!tag.startsWith(name) || (tag.length > name.length && !isWhitespace(tag.charCodeAt(name.length))))
    return undefined;
  const kind = tagKind(tag, name);
  if (kind === undefined) return undefined;
  let start = open;
  let end = close;
  while (start < end && isWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isWhitespace(text.charCodeAt(end - 1))) end--;
  const cdata = sections > 0 ? cdataBefore(text, close) : undefined;
  if (cdata !== undefined && cdata.begin === start) {
    // The value is all in the section(s): redacted inside them, the markup kept.
    const value = text.slice(cdata.start, cdata.end);
    return acceptable(value.trim()) ? { start: cdata.start, end: cdata.end, kind } : undefined;
  }
  // Text mixed with sections is redacted whole, markup and all (the marker is text either way).
  const value =
    sections > 0 ? text.slice(start, end).replace(/<!\[CDATA\[|\]\]>/g, '') : text.slice(start, end);
  return acceptable(value) ? { start, end, kind } : undefined;
}

/** The `value="..."` at `at` of a tag whose `key` or `name` attribute names a credential. */
function matchValueAttribute(text: string, at: number): RuleMatch | undefined {
  if (at === 0 || !isWhitespace(text.charCodeAt(at - 1))) return undefined;
  const tagStart = tagOpen(text, at);
  if (tagStart === -1) return undefined;
  let nameEnd = tagStart + 1;
  while (nameEnd - tagStart <= MAX_NAME && isNameCode(text.charCodeAt(nameEnd))) nameEnd++;
  const tag = text.slice(tagStart + 1, at);
  const attribute = KEY_ATTRIBUTE.exec(tag.slice(nameEnd - tagStart - 1));
  const kind = attribute?.[1] === undefined ? undefined : credentialKind(attribute[1]);
  if (kind === undefined) return undefined;
  const quote = text.charCodeAt(at + 6);
  const start = at + 7;
  let end = start;
  while (end < text.length && end - start <= MAX_VALUE && text.charCodeAt(end) !== quote) end++;
  if (end >= text.length || end - start > MAX_VALUE) return undefined;
  return acceptable(text.slice(start, end)) ? { start, end, kind } : undefined;
}

/** Credentials in XML elements and `key`/`name` + `value` attributes. */
export const markupCredentials: SecretRule = {
  id: 'markup_credentials',
  description:
    'Credentials in XML: <password>...</password> (also with a namespace prefix, any case, or in a CDATA section), <entry key="db.password">...</entry>, <add key="ApiKey" value="..."/>, <property name="password" value="..."/>',
  anchors: ['</', 'value="', "value='"],
  match: (text, anchor) =>
    text.charCodeAt(anchor) === 60 ? matchElement(text, anchor) : matchValueAttribute(text, anchor),
  maxLength: MAX_VALUE + MAX_NAME + 8,
  positives: (fake) => {
    const password = `${fake.chars(ALPHABETS.alnum, 12)}!${fake.chars(ALPHABETS.digits, 2)}`;
    const sample = (text: string, kind = 'password') => ({ text, secret: password, kind });
    return [
      sample(`<server>\n  <id>nexus</id>\n  <password>${password}</password>\n</server>`),
      sample(`<wsse:Password Type="#PasswordText">${password}</wsse:Password>`),
      sample(`<entry key="db.password">${password}</entry>`),
      sample(`<add key="ApiKey" value="${password}" />`, 'api_key'),
      sample(`<property name="password" value="${password}"/>`),
    ];
  },
  negatives: () => [
    '<label for="password">Password</label>',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a property reference is the sample
    '<password>${DB_PASSWORD}</password>',
    '<th>Token</th><td>expires</td>',
    '<add key="Theme" value="dark" />',
    '<secret>true</secret>',
  ],
};
