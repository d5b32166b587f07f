import { describe, expect, it } from 'vitest';
import type { RestParameterBinding } from '../../src/config.js';
import { serializeQueryValue } from '../../src/query.js';

function query(name: string, value: unknown, binding: Partial<RestParameterBinding>): string {
  const out: string[] = [];
  serializeQueryValue(name, value, { in: 'query', ...binding }, out);
  return out.join('&');
}

// Examples from the OpenAPI 3.1 "Style Examples" table (color = blue / [blue,black,brown] / {R:100,G:200,B:150}).
describe('serializeQueryValue', () => {
  const array = ['blue', 'black', 'brown'];
  const object = { R: 100, G: 200, B: 150 };
  it('serializes form with and without explode', () => {
    expect(query('color', 'blue', {})).toBe('color=blue');
    expect(query('color', array, { style: 'form', explode: true })).toBe(
      'color=blue&color=black&color=brown',
    );
    expect(query('color', array, { style: 'form', explode: false })).toBe('color=blue,black,brown');
    expect(query('color', object, { style: 'form', explode: true })).toBe('R=100&G=200&B=150');
    expect(query('color', object, { style: 'form', explode: false })).toBe('color=R,100,G,200,B,150');
  });
  it('serializes spaceDelimited, pipeDelimited and deepObject', () => {
    expect(query('color', array, { style: 'spaceDelimited', explode: false })).toBe(
      'color=blue%20black%20brown',
    );
    expect(query('color', array, { style: 'pipeDelimited', explode: false })).toBe('color=blue|black|brown');
    expect(query('color', object, { style: 'deepObject', explode: true })).toBe(
      'color[R]=100&color[G]=200&color[B]=150',
    );
  });
  it('encodes values strictly unless allowReserved, which still never splits the query', () => {
    expect(query('q', 'a/b?c&d=e#f', {})).toBe('q=a%2Fb%3Fc%26d%3De%23f');
    expect(query('q', 'a/b?c&d=e#f+g', { allowReserved: true })).toBe('q=a/b?c%26d%3De%23f%2Bg');
  });
  it('sends JSON text for content-typed parameters and skips null', () => {
    expect(query('filter', { a: [1] }, { json: true })).toBe('filter=%7B%22a%22%3A%5B1%5D%7D');
    expect(query('x', null, {})).toBe('');
  });
});
