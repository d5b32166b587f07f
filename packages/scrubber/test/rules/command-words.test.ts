import { describe, expect, it } from 'vitest';
import { createFakeSource } from '../../src/testing/fake.js';
import { COMMAND_LOOKBACK, type KnownCommand, commandBefore } from '../../src/rules/command-words.js';

// The look-back reuses the previous option's look-back when options come in increasing order in
// one text; called in decreasing order it looks back in full. Both must agree.

const commands: KnownCommand[] = [{ names: ['mysql', 'sshpass'] }, { names: ['login'], after: ['docker'] }];
const byName = new Map(commands.flatMap((command) => command.names.map((name) => [name, command] as const)));
const words = [
  'mysql',
  'sshpass',
  'docker',
  'login',
  'run',
  '-p',
  '-u',
  'root',
  '|',
  ';',
  '(',
  '\\\n',
  '\n',
  'x'.repeat(30),
  'word',
];

/** The look-back result at every dash, asked for in the given order. */
function lookBacks(text: string, order: 'increasing' | 'decreasing'): string[] {
  const dashes: number[] = [];
  for (let index = text.indexOf('-'); index !== -1; index = text.indexOf('-', index + 1)) dashes.push(index);
  if (order === 'decreasing') dashes.reverse();
  const results = dashes.map((index) => {
    const found = commandBefore(text, index, byName);
    return `${index}:${found === undefined ? '-' : `${found.command.names[0]}@${found.nameEnd}`}`;
  });
  return order === 'decreasing' ? results.reverse() : results;
}

describe('commandBefore', () => {
  it('gives the same command for every option whether it reuses the previous look-back or not', () => {
    const random = createFakeSource();
    const pick = () => words[Number.parseInt(random.chars('0123456789', 3), 10) % words.length] ?? 'x';
    let found = 0;
    for (let round = 0; round < 200; round++) {
      const text = Array.from({ length: 10 + (round % 50) }, pick).join(' ');
      const forward = lookBacks(text, 'increasing');
      expect(forward, text).toEqual(lookBacks(text, 'decreasing'));
      found += forward.filter((result) => !result.endsWith(':-')).length;
    }
    expect(found).toBeGreaterThan(100);
  });

  it('forgets a command more than the look-back away, also when the previous option found it', () => {
    // The first `-p` sees mysql; the later ones are more than the look-back from it.
    const text = `mysql${' x'.repeat(115)} -p -p -p -p`;
    const dashes = [...text.matchAll(/-p/g)].map((match) => match.index);
    const results = dashes.map((index) => commandBefore(text, index, byName)?.command.names[0]);
    expect(dashes[0]).toBeLessThan(COMMAND_LOOKBACK);
    expect(dashes[3]).toBeGreaterThan(COMMAND_LOOKBACK);
    expect(results[0]).toBe('mysql');
    expect(results[3]).toBeUndefined();
    expect(results).toEqual(
      lookBacks(text, 'decreasing').map((result) => (result.endsWith(':-') ? undefined : 'mysql')),
    );
  });
});
