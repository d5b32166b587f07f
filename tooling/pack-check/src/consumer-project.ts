import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ExampleSpec } from './examples.js';
import type { PackedPackage } from './pack.js';
import { firstTypeScriptBlock } from './readme-example.js';
import { type CommandOutcome, runCommand } from './run-command.js';

/**
 * The environment of a user's shell: this process's, without what pnpm and vitest add for
 * scripts (`npm_*` settings, `NODE_OPTIONS`), so npm and node in the project behave as for
 * someone who never saw the repository.
 */
export function userEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^npm_/i.test(key) && key !== 'NODE_OPTIONS' && !key.startsWith('VITEST'),
    ),
  );
}

/** The compiler options a user of the packages would pick: strict, NodeNext, no custom conditions. */
const consumerTsconfig = {
  compilerOptions: {
    target: 'ES2023',
    lib: ['ES2023'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: ['node'],
    strict: true,
    // as `tsc --init` sets it: an import of a package without types is still an error in the
    // example itself (TS7016 under strict), errors inside a package's .d.ts files are not
    skipLibCheck: true,
    esModuleInterop: true,
    rootDir: 'examples',
    outDir: 'out',
  },
  include: ['examples'],
};

/**
 * Writes a project that depends on every tarball (by `file:` path) and on the third-party
 * packages the examples import themselves.
 */
export function writeConsumerProject(
  directory: string,
  packed: PackedPackage[],
  thirdParty: Record<string, string>,
): void {
  mkdirSync(join(directory, 'examples'), { recursive: true });
  const dependencies = Object.fromEntries([
    ...packed.map((entry) => [entry.package.name, `file:${entry.tarball}`]),
    ...Object.entries(thirdParty),
  ]);
  const manifest = {
    name: 'toolplane-consumer',
    version: '1.0.0',
    private: true,
    type: 'module',
    dependencies,
  };
  writeFileSync(join(directory, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(directory, 'tsconfig.json'), `${JSON.stringify(consumerTsconfig, null, 2)}\n`);
}

/** `npm install` in the project, with plain npm and the user's environment. */
export function installConsumerProject(directory: string): Promise<CommandOutcome> {
  return runCommand('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
    cwd: directory,
    timeoutMs: 150_000,
    env: userEnvironment(),
  });
}

/** The folder name of a package's example: `@toolplane/core` -> `core`. */
export function exampleFolder(packageName: string): string {
  return packageName.replace(/^@[^/]+\//, '');
}

/**
 * Copies a package's example into `examples/<name>/` and returns the path of the JavaScript
 * file tsc makes of its entry, relative to the project.
 */
export function writeExample(
  directory: string,
  packageName: string,
  spec: ExampleSpec,
  packageDirectory: string,
  repositoryRoot: string,
): string {
  const folder = exampleFolder(packageName);
  const target = join(directory, 'examples', folder);
  mkdirSync(target, { recursive: true });
  if ('readme' in spec.source) {
    const readme = readFileSync(join(packageDirectory, 'README.md'), 'utf8');
    const block = firstTypeScriptBlock(readme);
    if (!block) throw new Error(`${packageName}: README.md has no \`\`\`ts block to run`);
    writeFileSync(join(target, 'readme-example.ts'), block);
    return join('out', folder, 'readme-example.js');
  }
  for (const file of spec.source.files)
    copyFileSync(join(repositoryRoot, file), join(target, basename(file)));
  const entry = spec.source.files[0];
  if (!entry) throw new Error(`${packageName}: the example lists no files`);
  return join('out', folder, basename(entry).replace(/\.ts$/, '.js'));
}

/** The project's own TypeScript (installed from the registry), over every example at once. */
export function compileExamples(directory: string): Promise<CommandOutcome> {
  return runCommand(
    process.execPath,
    [join('node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'],
    {
      cwd: directory,
      timeoutMs: 120_000,
      env: userEnvironment(),
    },
  );
}

/** Runs one compiled example with node from the project folder. */
export function runExample(directory: string, entry: string): Promise<CommandOutcome> {
  return runCommand(process.execPath, [entry], { cwd: directory, timeoutMs: 60_000, env: userEnvironment() });
}
