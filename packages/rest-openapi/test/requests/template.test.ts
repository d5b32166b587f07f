import { describe, expect, it } from 'vitest';
import { expandString, fillBodyTemplate, urlPathEnvNames } from '../../src/template.js';

describe('templates', () => {
  it('never expands a value a second time', () => {
    const sources = { env: { A: '{{secret}}', B: '${A}' }, args: { secret: 'leak', q: '${B}' } };
    expect(expandString('x ${A} {{q}} ${B}', sources, 'test')).toBe('x {{secret}} ${B} ${A}');
    expect(fillBodyTemplate({ text: 'env ${A}, arg {{q}}', whole: '{{q}}' }, sources)).toEqual({
      text: 'env {{secret}}, arg ${B}',
      whole: '${B}',
    });
  });

  it('keeps the JSON type of a whole-string argument and drops absent ones', () => {
    const sources = { env: {}, args: { n: 3, list: [1, 2], flag: false } };
    expect(
      fillBodyTemplate(
        { n: '{{n}}', list: '{{list}}', flag: '{{flag}}', missing: '{{nope}}', items: ['{{n}}', '{{nope}}'] },
        sources,
      ),
    ).toEqual({ n: 3, list: [1, 2], flag: false, items: [3] });
  });

  it('says which variable is missing', () => {
    expect(() => expandString('${NOT_THERE}', { env: {} }, 'header x')).toThrow(
      /NOT_THERE \(used in header x\)/,
    );
  });
});

describe('urlPathEnvNames', () => {
  it('names the variables of the path and query, not those making the origin', () => {
    expect(urlPathEnvNames('https://api.telegram.org/bot${TOKEN}/send')).toEqual(['TOKEN']);
    expect(urlPathEnvNames('${BASE}/items/${ID}?key=${KEY}')).toEqual(['ID', 'KEY']);
    expect(urlPathEnvNames('https://${HOST}:${PORT}/x')).toEqual([]);
    expect(urlPathEnvNames('${BASE}')).toEqual([]);
    expect(urlPathEnvNames('http://${HOST}')).toEqual([]);
  });
});
