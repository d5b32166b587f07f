import { describe, expect, it } from 'vitest';
import { fillPath, serializePathValue } from '../../src/path.js';

describe('serializePathValue', () => {
  const array = ['blue', 'black', 'brown'];
  const object = { R: 100, G: 200, B: 150 };
  it('follows the OpenAPI simple, label and matrix styles', () => {
    expect(serializePathValue('color', array)).toBe('blue,black,brown');
    expect(serializePathValue('color', object, { in: 'path', explode: true })).toBe('R=100,G=200,B=150');
    expect(serializePathValue('color', 'blue', { in: 'path', style: 'label' })).toBe('.blue');
    expect(serializePathValue('color', array, { in: 'path', style: 'label', explode: true })).toBe(
      '.blue.black.brown',
    );
    expect(serializePathValue('color', array, { in: 'path', style: 'matrix', explode: true })).toBe(
      ';color=blue;color=black;color=brown',
    );
    expect(serializePathValue('color', object, { in: 'path', style: 'matrix', explode: false })).toBe(
      ';color=R,100,G,200,B,150',
    );
  });
  it('encodes separators inside values', () => {
    expect(serializePathValue('x', ['a,b', 'c/d'])).toBe('a%2Cb,c%2Fd');
  });
});

describe('fillPath', () => {
  const same = (name: string) => name;
  it('refuses dot segments and empty values', () => {
    expect(() => fillPath('/a/{x}', { x: '..' }, undefined, same)).toThrow(/change the path/);
    expect(() => fillPath('/a/{x}', { x: '' }, undefined, same)).toThrow(/must not be empty/);
    expect(() => fillPath('/a/{x}', {}, undefined, same)).toThrow(/is required/);
    expect(fillPath('/a/{x}.json', { x: '.' }, undefined, same)).toBe('/a/..json');
  });
});
