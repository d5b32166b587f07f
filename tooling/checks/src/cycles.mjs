// Import cycles inside one package's src/. A cycle makes module order matter (a value imported
// back is undefined while its module is still being evaluated) and ties files together that
// should be read and changed alone. Type-only imports are erased at build time and do not count.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCircular, parseDependencyTree } from 'dpdm';

/** The repository's base tsconfig, for a package that has none of its own. */
const baseTsconfig = path.resolve(fileURLToPath(import.meta.url), '../../../../tsconfig.base.json');

/**
 * The import graph of the TypeScript files under `<packageDir>/src`: its cycles, each as a list
 * of paths relative to the package in import order, and the relative imports that resolve to no
 * file (a graph with holes would hide cycles, so those are reported too).
 * @param {string} packageDir
 * @returns {Promise<{ cycles: string[][], unresolved: string[] }>}
 */
export async function analyseImports(packageDir) {
  const root = path.resolve(packageDir);
  const own = path.join(root, 'tsconfig.json');
  const tree = await parseDependencyTree([path.join(root, 'src/**/*.ts'), path.join(root, 'src/**/*.mts')], {
    context: root,
    // With a tsconfig dpdm resolves through TypeScript, so `./a.js` finds `./a.ts`.
    tsconfig: existsSync(own) ? own : baseTsconfig,
    transform: true,
    skipDynamicImports: false,
    exclude: /node_modules|\.test\.ts$|\.test-d\.ts$/,
    onProgress: () => {},
  });
  const unresolved = [];
  for (const dependencies of Object.values(tree)) {
    for (const dependency of dependencies ?? []) {
      if (dependency.id === null && dependency.request.startsWith('.')) {
        unresolved.push(`${toPackagePath(root, dependency.issuer)} imports ${dependency.request}`);
      }
    }
  }
  const cycles = parseCircular(tree, false).map((cycle) => cycle.map((file) => toPackagePath(root, file)));
  return { cycles, unresolved };
}

/**
 * The import cycles among the TypeScript files under `<packageDir>/src`.
 * @param {string} packageDir
 * @returns {Promise<string[][]>}
 */
export async function findCycles(packageDir) {
  return (await analyseImports(packageDir)).cycles;
}

/** @param {string} root @param {string} file */
function toPackagePath(root, file) {
  const relative = path.isAbsolute(file) ? path.relative(root, file) : file;
  return relative.split(path.sep).join('/');
}
