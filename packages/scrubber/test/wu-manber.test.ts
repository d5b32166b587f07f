import { describe, expect, it } from 'vitest';
import { type LiteralHit, createLiteralSearcher } from '../src/wu-manber.js';

function naive(text: string, literals: readonly string[]): string[] {
  const hits: string[] = [];
  literals.forEach((literal, index) => {
    for (let at = text.indexOf(literal); at !== -1; at = text.indexOf(literal, at + 1))
      hits.push(`${at}:${index}`);
  });
  return hits.sort();
}

describe('createLiteralSearcher', () => {
  it('finds exactly what indexOf finds, for short and long literal sets', () => {
    const alphabet = 'abcAB01é😀';
    for (let round = 0; round < 60; round++) {
      const random = (length: number): string =>
        Array.from({ length }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('');
      const literals = Array.from({ length: 1 + (round % 12) }, () => random(2 + (round % 9)));
      const text = random(3000) + literals.join('x') + random(100);
      const hits: LiteralHit[] = [];
      createLiteralSearcher(literals).search(text, (hit) => hits.push(hit));
      expect(hits.map((hit) => `${hit.start}:${hit.literalIndex}`).sort()).toEqual(naive(text, literals));
    }
  });

  it('rejects literals shorter than 2 characters', () => {
    expect(() => createLiteralSearcher(['a'])).toThrow(RangeError);
    expect(createLiteralSearcher([]).size).toBe(0);
  });
});
