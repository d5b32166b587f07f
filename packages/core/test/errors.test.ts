import { describe, expect, it } from 'vitest';
import { ToolError, errorMessage } from '../src/errors.js';
import { failFromError } from '../src/result.js';

/** Values whose reading throws: a message getter, toJSON and toString, and a Proxy's traps. */
function unreadable(): Array<[string, unknown]> {
  const error = new Error('hidden');
  Object.defineProperty(error, 'message', {
    get() {
      throw new Error('message getter');
    },
  });
  const object = {
    toJSON() {
      throw new Error('toJSON');
    },
    toString() {
      throw new Error('toString');
    },
  };
  const proxy = new Proxy(
    {},
    {
      get() {
        throw new Error('get trap');
      },
      getPrototypeOf() {
        throw new Error('prototype trap');
      },
    },
  );
  return [
    ['an Error whose message getter throws', error],
    ['an object whose toJSON and toString throw', object],
    ['a Proxy whose traps throw', proxy],
  ];
}

describe('errorMessage and failFromError on values that cannot be read', () => {
  it.each(unreadable())('%s: a message, never a throw', (_name, value) => {
    expect(errorMessage(value)).toBe('a thrown value whose message cannot be read');
    expect(failFromError(value)).toEqual({
      ok: false,
      error: {
        code: 'EXECUTION_FAILED',
        message: 'a thrown value whose message cannot be read',
        retryable: false,
      },
    });
    expect(ToolError.isInstance(value)).toBe(false);
  });

  it('a ToolError look-alike whose fields throw fails with the fallback code', () => {
    const marker = Symbol.for('toolplane.error');
    const lookAlike = new Proxy(
      { [marker]: true },
      {
        get(target, key) {
          if (key === marker) return Reflect.get(target, key);
          throw new Error(`field ${String(key)}`);
        },
      },
    );
    expect(ToolError.isInstance(lookAlike)).toBe(true);
    expect(failFromError(lookAlike, 'INTERNAL').error.code).toBe('INTERNAL');
  });

  it('reads ordinary errors, strings and values', () => {
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage('text')).toBe('text');
    expect(errorMessage({ a: 1 })).toBe('{"a":1}');
    expect(errorMessage(undefined)).toBe('undefined');
    expect(failFromError(new ToolError('TIMEOUT', 'slow')).error).toMatchObject({
      code: 'TIMEOUT',
      message: 'slow',
    });
  });
});
