#!/usr/bin/env node
// Runs the repository checks over every workspace package: no dependency cycle between packages,
// no import cycle in src/, and a README that is short and free of history. Prints each problem
// and exits 1 when there is one.
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyseImports } from './cycles.mjs';
import { packageCycles } from './package-cycles.mjs';
import { checkReadme } from './readmes.mjs';

const repository = path.resolve(fileURLToPath(import.meta.url), '../../../..');
const groups = ['packages', 'apps', 'tooling', 'examples'];
/** READMEs of public-facing packages only: tooling's are notes for contributors. */
const readmeGroups = new Set(['packages', 'apps']);

async function packageDirs() {
  const dirs = [];
  for (const group of groups) {
    const base = path.join(repository, group);
    if (!existsSync(base)) continue;
    for (const entry of await readdir(base, { withFileTypes: true })) {
      const dir = path.join(base, entry.name);
      if (entry.isDirectory() && existsSync(path.join(dir, 'package.json'))) dirs.push({ group, dir });
    }
  }
  return dirs;
}

/** A package's README and the reference pages in its docs/ (held to the same rules). */
async function documentationPages(dir) {
  const pages = [];
  if (existsSync(path.join(dir, 'README.md'))) pages.push(path.join(dir, 'README.md'));
  const docs = path.join(dir, 'docs');
  if (existsSync(docs)) {
    for (const entry of await readdir(docs, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.md')) pages.push(path.join(entry.parentPath, entry.name));
    }
  }
  return pages;
}

/** Test files under a package's src/ (decision 0004: tests live in test/). */
async function testsInSource(dir) {
  const src = path.join(dir, 'src');
  if (!existsSync(src)) return [];
  const entries = await readdir(src, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.test(-d)?\.[cm]?[jt]sx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

let failures = 0;
const dirs = await packageDirs();
for (const cycle of await packageCycles(dirs.map(({ dir }) => dir))) {
  failures++;
  console.error(
    `package dependency cycle: ${[...cycle, cycle[0]].join(' -> ')}; move the tests that need both into packages/tests`,
  );
}
for (const { group, dir } of dirs) {
  const name = path.relative(repository, dir);
  if (existsSync(path.join(dir, 'src'))) {
    const { cycles, unresolved } = await analyseImports(dir);
    for (const cycle of cycles) {
      failures++;
      console.error(`${name}: import cycle: ${[...cycle, cycle[0]].join(' -> ')}`);
    }
    for (const hole of unresolved) {
      failures++;
      console.error(`${name}: ${hole}, which resolves to no file (the cycle check cannot see past it)`);
    }
  }
  for (const misplaced of await testsInSource(dir)) {
    failures++;
    console.error(
      `${path.relative(repository, misplaced)}: a test in src/; tests live in the package's test/ folder`,
    );
  }
  if (!readmeGroups.has(group)) continue;
  for (const page of await documentationPages(dir)) {
    for (const { line, problem } of await checkReadme(page)) {
      failures++;
      console.error(`${path.relative(repository, page)}${line ? `:${line}` : ''}: ${problem}`);
    }
  }
}
if (failures > 0) {
  console.error(`\n${failures} problem(s); see CONTRIBUTING.md (Layout, READMEs)`);
  process.exit(1);
}
console.log('checks: no package or import cycle, READMEs short and free of history');
