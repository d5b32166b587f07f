import type { SecretRule } from '../types.js';

/** One adversarial input and what it attacks. */
export interface AdversarialInput {
  readonly label: string;
  readonly text: string;
}

const LOOP_CHARACTERS = [
  'a',
  'A',
  '0',
  'f',
  '-',
  '_',
  '.',
  '=',
  '/',
  '+',
  '%',
  ' ',
  '\n',
  '\t',
  '"',
  "'",
  ':',
  '\\',
  '@',
];

function repeatTo(unit: string, length: number): string {
  return unit.repeat(Math.max(1, Math.ceil(length / unit.length))).slice(0, length);
}

/**
 * Inputs built to make a backtracking regex engine work hard: for every anchor of every rule,
 * the anchor followed by a long run of each character a pattern may loop on, the anchor
 * repeated, and anchor/character pairs repeated; plus inputs aimed at the context rules (key
 * names followed by long runs, unterminated quotes and PEM bodies, URLs without `@`).
 */
export function adversarialInputs(rules: readonly SecretRule[], length: number): AdversarialInput[] {
  const inputs: AdversarialInput[] = [];
  for (const rule of rules) {
    for (const anchor of rule.anchors) {
      inputs.push({ label: `${rule.id}: ${anchor} repeated`, text: repeatTo(anchor, length) });
      for (const character of LOOP_CHARACTERS) {
        inputs.push({
          label: `${rule.id}: ${anchor} + run of ${JSON.stringify(character)}`,
          text: anchor + repeatTo(character, length),
        });
        inputs.push({
          label: `${rule.id}: (${anchor}${JSON.stringify(character)}) repeated`,
          text: repeatTo(anchor + character, length),
        });
      }
    }
  }
  const extra: [string, string][] = [
    ['key name then spaces', `password${repeatTo(' ', length)}=x`],
    ['key then long value', `password=${repeatTo('x1', length)}`],
    ['key= repeated', repeatTo('password=', length)],
    ['key=" repeated', repeatTo('token="', length)],
    ['unterminated escaped quote', `secret="${repeatTo('a\\', length)}`],
    ['authorization scheme repeated', repeatTo('Authorization: Bearer ', length)],
    ['long key name', `${repeatTo('a_', length)}token=abcdef123`],
    [
      'PEM header, unterminated body',
      `-----BEGIN PRIVATE KEY-----\n${repeatTo(`${'A'.repeat(64)}\n`, length)}`,
    ],
    ['PEM headers repeated', repeatTo('-----BEGIN RSA PRIVATE KEY-----\nAAAA\n', length)],
    ['PEM escaped newlines', `-----BEGIN PRIVATE KEY-----${repeatTo('\\n', length)}`],
    ['URL userinfo without @', `postgres://${repeatTo('a', length / 2)}:${repeatTo('b', length / 2)}`],
    ['URL prefixes repeated', repeatTo('://a:', length)],
    ['JWT segments without signature', `eyJ${repeatTo('a', length / 2)}.eyJ${repeatTo('b', length / 2)}`],
    ['JWT headers repeated', repeatTo('eyJhbGciOi.', length)],
  ];
  for (const [label, text] of extra) inputs.push({ label, text });
  return inputs;
}
