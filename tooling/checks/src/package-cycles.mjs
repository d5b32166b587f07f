// Cycles between workspace packages. Turbo builds a package's workspace dependencies before it
// (`^build`), counting devDependencies too, so two packages that need each other, even only in
// their tests, make every build that reaches them fail. Tests that need both belong in a package
// that depends on both (packages/tests).
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'];

/**
 * The dependency cycles among the packages in `dirs`, each as a list of package names.
 * @param {string[]} dirs package directories, each holding a package.json
 * @returns {Promise<string[][]>}
 */
export async function packageCycles(dirs) {
  const manifests = await Promise.all(
    dirs.map(async (dir) => JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'))),
  );
  const names = new Set(manifests.map((manifest) => manifest.name));
  /** @type {Map<string, string[]>} */
  const edges = new Map();
  for (const manifest of manifests) {
    const needs = new Set();
    for (const field of FIELDS) {
      for (const dependency of Object.keys(manifest[field] ?? {})) {
        if (names.has(dependency) && dependency !== manifest.name) needs.add(dependency);
      }
    }
    edges.set(manifest.name, [...needs].sort());
  }
  const cycles = [];
  const state = new Map(); // name -> 'open' | 'done'
  const stack = [];
  const visit = (name) => {
    state.set(name, 'open');
    stack.push(name);
    for (const next of edges.get(name) ?? []) {
      if (state.get(next) === 'open') cycles.push(stack.slice(stack.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(name, 'done');
  };
  for (const name of [...edges.keys()].sort()) if (!state.has(name)) visit(name);
  return cycles;
}
