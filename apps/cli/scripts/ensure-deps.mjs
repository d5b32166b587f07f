// The tests run the built binary, which loads the workspace packages from their dist/. In CI
// turbo builds them first (apps/cli/turbo.json: test dependsOn ^build); this covers a local
// `pnpm --filter @toolplane/cli test` in a checkout where some package was never built.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const names = Object.keys(manifest.dependencies).filter((name) => name.startsWith('@toolplane/'));
// core first: the others' declarations import it
names.sort((a, b) => (a === '@toolplane/core' ? -1 : b === '@toolplane/core' ? 1 : a.localeCompare(b)));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
for (const name of names) {
  const directory = realpathSync(join(root, 'node_modules', name));
  if (existsSync(join(directory, 'dist', 'index.js'))) continue;
  process.stderr.write(`building ${name} (its dist/ is missing)\n`);
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: directory, stdio: 'inherit' });
  } catch {
    if (!existsSync(join(directory, 'dist', 'index.js'))) throw new Error(`${name} could not be built`);
  }
}
