import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { context, failure, useWorkspace } from '../helpers/index.js';

// Characters that break a line where they are shown (next line, line and paragraph separators)
// or are C1 controls: refused in paths like the C0 controls, so no tool creates a name that
// list would have to quote.

const ws = useWorkspace();

describe('paths with C1 controls or Unicode line separators', () => {
  it('are INVALID_ARGUMENTS and create nothing', async () => {
    for (const char of ['\u0085', '\u009b', '\u2028', '\u2029']) {
      const path = `a${char}b.txt`;
      const error = failure(await ws.provider.execute('write', { path, content: 'x' }, context()));
      expect({ char: char.codePointAt(0), code: error.code }).toEqual({
        char: char.codePointAt(0),
        code: 'INVALID_ARGUMENTS',
      });
    }
    expect(await readdir(ws.dir)).toEqual([]);
  });
});
