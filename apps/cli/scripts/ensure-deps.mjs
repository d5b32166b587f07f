// The tests run the built binary, which loads the workspace packages from their dist/. In CI
// turbo builds them first (apps/cli/turbo.json: test dependsOn ^build); this covers a local
// `pnpm --filter @toolplane/cli test` in a checkout where some package was never built.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

/** The workspace packages a package depends on, directly or through another, dependencies first. */
function workspaceDependencies(directory, seen = new Map()) {
  const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
  for (const name of Object.keys(manifest.dependencies ?? {}).sort()) {
    if (!name.startsWith('@toolplane/') || seen.has(name)) continue;
    const dependency = realpathSync(join(directory, 'node_modules', name));
    seen.set(name, undefined);
    workspaceDependencies(dependency, seen);
    seen.delete(name);
    seen.set(name, dependency); // after its own dependencies: their declarations come first
  }
  return seen;
}

const packages = workspaceDependencies(root);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
for (const [name, directory] of packages) {
  if (existsSync(join(directory, 'dist', 'index.js'))) continue;
  process.stderr.write(`building ${name} (its dist/ is missing)\n`);
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: directory, stdio: 'inherit' });
  } catch {
    if (!existsSync(join(directory, 'dist', 'index.js'))) throw new Error(`${name} could not be built`);
  }
}
