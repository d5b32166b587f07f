import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { analyseImports, findCycles } from '../src/cycles.mjs';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function packageWith(files: Record<string, string>): Promise<string> {
  dir = await mkdtemp(path.join(tmpdir(), 'toolplane-cycles-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  return dir;
}

describe('findCycles', () => {
  it('reports a cycle through three files, with .js specifiers resolved to .ts sources', async () => {
    const root = await packageWith({
      'src/a.ts': "import { b } from './b.js';\nexport const a = (): number => b() + 1;\n",
      'src/b.ts': "import { c } from './nested/c.js';\nexport const b = (): number => c();\n",
      'src/nested/c.ts': "import { a } from '../a.js';\nexport const c = (): number => (a ? 1 : 0);\n",
    });
    const cycles = await findCycles(root);
    expect(cycles).toHaveLength(1);
    expect([...(cycles[0] ?? [])].sort()).toEqual(['src/a.ts', 'src/b.ts', 'src/nested/c.ts']);
  });

  it('does not count an import that only brings in types', async () => {
    const root = await packageWith({
      'src/a.ts': "import type { B } from './b.js';\nexport interface A { b?: B }\nexport const a = 1;\n",
      'src/b.ts': "import { a } from './a.js';\nexport interface B { a: number }\nexport const b = a;\n",
    });
    expect(await findCycles(root)).toEqual([]);
  });

  it('finds nothing in a package whose imports form a tree', async () => {
    const root = await packageWith({
      'src/index.ts': "export { a } from './a.js';\nexport { b } from './b.js';\n",
      'src/a.ts': "import { shared } from './shared.js';\nexport const a = shared;\n",
      'src/b.ts': "import { shared } from './shared.js';\nexport const b = shared;\n",
      'src/shared.ts': 'export const shared = 1;\n',
    });
    expect(await findCycles(root)).toEqual([]);
  });
});

describe('analyseImports', () => {
  it('reports a relative import that resolves to no file, so a hole cannot hide a cycle', async () => {
    const root = await packageWith({
      'src/a.ts': "import { gone } from './gone.js';\nexport const a = gone;\n",
    });
    expect(await analyseImports(root)).toEqual({ cycles: [], unresolved: ['src/a.ts imports ./gone.js'] });
  });
});
