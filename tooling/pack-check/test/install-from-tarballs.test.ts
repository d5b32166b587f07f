// Every public package, packed as it would be published and installed with plain npm into a
// project outside the repository: no workspace links, no source condition, no repository files.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compileExamples,
  installConsumerProject,
  runExample,
  userEnvironment,
  writeConsumerProject,
  writeExample,
} from '../src/consumer-project.js';
import { binPackages, examples } from '../src/examples.js';
import { attwTarball, publintTarball } from '../src/lint.js';
import { type PackedPackage, packPackages, workspaceRanges } from '../src/pack.js';
import { type CommandOutcome, describeOutcome, runCommand } from '../src/run-command.js';
import { publicPackages, readManifest, repositoryRoot } from '../src/workspace.js';

const packages = publicPackages();
const names = packages.map((entry) => entry.name);
const runnable = Object.entries(examples)
  .filter(([, spec]) => spec.run === true)
  .map(([name]) => name);

let work: string;
let packed = new Map<string, PackedPackage>();

/** A packed package by name; fails the calling test when packing did not produce it. */
function tarballOf(name: string): PackedPackage {
  const entry = packed.get(name);
  if (!entry) throw new Error(`${name} was not packed`);
  return entry;
}

/** Every file an `exports` entry points at (any condition but the repository's source one). */
function exportTargets(value: unknown, condition = ''): string[] {
  if (typeof value === 'string') return condition === '@toolplane/source' ? [] : [value];
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => exportTargets(inner, key));
  }
  return [];
}

function binTargets(bin: PackedPackage['manifest']['bin']): string[] {
  if (!bin) return [];
  return typeof bin === 'string' ? [bin] : Object.values(bin);
}

const inTarball = (target: string) => target.replace(/^\.\//, '');

/** The third-party packages the examples import themselves, at the ranges the repository uses. */
function exampleDependencies(): Record<string, string> {
  const root = readManifest(repositoryRoot);
  const core = readManifest(join(repositoryRoot, 'packages', 'core'));
  const guard = readManifest(join(repositoryRoot, 'packages', 'address-guard'));
  const openaiExample = readManifest(join(repositoryRoot, 'examples', 'adapter-openai'));
  const pick = (name: string, ...sources: (Record<string, string> | undefined)[]) => {
    const range = sources.map((source) => source?.[name]).find(Boolean);
    if (!range) throw new Error(`no range for ${name} in the repository's manifests`);
    return [name, range] as const;
  };
  return Object.fromEntries([
    pick('typescript', root.devDependencies),
    pick('@types/node', root.devDependencies),
    pick('zod', core.dependencies),
    pick('undici', guard.dependencies, guard.devDependencies),
    pick('openai', openaiExample.dependencies),
  ]);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'toolplane-pack-check-'));
  const tarballs = join(work, 'tarballs');
  mkdirSync(tarballs);
  packed = new Map((await packPackages(packages, tarballs)).map((entry) => [entry.package.name, entry]));
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the set of public packages', () => {
  it('builds every public package before this test runs (each is a devDependency here)', () => {
    const own = readManifest(join(repositoryRoot, 'tooling', 'pack-check'));
    const missing = names.filter((name) => own.devDependencies?.[name] !== 'workspace:*');
    expect(missing, 'add them as "workspace:*" devDependencies so turbo builds them first').toEqual([]);
  });

  it('has an example or a bin check for every public package', () => {
    const unchecked = names.filter((name) => !(name in examples) && !binPackages.has(name));
    expect(unchecked, 'add an entry to src/examples.ts').toEqual([]);
    expect(Object.keys(examples).filter((name) => !names.includes(name))).toEqual([]);
  });
});

describe.each(names)('the tarball of %s', (name) => {
  it('names versions where the workspace has workspace: ranges', () => {
    expect(workspaceRanges(tarballOf(name).manifest)).toEqual([]);
  });

  it('holds its README, its license and every file its exports and bin name', () => {
    const { files, manifest, package: source } = tarballOf(name);
    expect(files).toContain('README.md');
    expect(files.some((file) => file.startsWith('dist/'))).toBe(true);
    if (existsSync(join(repositoryRoot, 'LICENSE')) || existsSync(join(source.directory, 'LICENSE'))) {
      expect(files).toContain('LICENSE');
    }
    const named = [...exportTargets(manifest.exports), ...binTargets(manifest.bin)].map(inTarball);
    expect(named.filter((file) => !files.includes(file))).toEqual([]);
    expect(files.filter((file) => file.startsWith('src/') || file.startsWith('test/'))).toEqual([]);
  });

  it('starts every bin with a node shebang', () => {
    const { manifest, root } = tarballOf(name);
    for (const bin of binTargets(manifest.bin)) {
      const firstLine = readFileSync(join(root, bin), 'utf8').split('\n')[0];
      expect(firstLine, bin).toBe('#!/usr/bin/env node');
    }
  });

  it('passes publint without errors or warnings', async () => {
    const findings = await publintTarball(tarballOf(name).tarball);
    expect(findings.filter((finding) => finding.type !== 'suggestion')).toEqual([]);
  });

  it('passes attw with the esm-only profile', async () => {
    expect(await attwTarball(tarballOf(name).tarball)).toEqual([]);
  });
});

describe('installed with npm into a project outside the repository', () => {
  let project: string;
  let compiled: CommandOutcome;
  const entries = new Map<string, string>();

  beforeAll(async () => {
    project = join(work, 'project');
    mkdirSync(project);
    writeConsumerProject(project, [...packed.values()], exampleDependencies());
    const installed = await installConsumerProject(project);
    if (installed.code !== 0) throw new Error(describeOutcome('npm install', installed));
    for (const [name, spec] of Object.entries(examples)) {
      const source = packages.find((entry) => entry.name === name);
      if (!source) throw new Error(`${name} is in src/examples.ts but not a public package`);
      entries.set(name, writeExample(project, name, spec, source.directory, repositoryRoot));
    }
    compiled = await compileExamples(project);
  });

  it('is outside the repository and holds real copies, not links into it', () => {
    expect(relative(realpathSync(repositoryRoot), realpathSync(project)).startsWith('..')).toBe(true);
    for (const name of names) {
      const installed = realpathSync(join(project, 'node_modules', name));
      expect(installed.startsWith(join(realpathSync(project), 'node_modules')), name).toBe(true);
    }
  });

  it('type-checks every example against the installed packages and their types', () => {
    expect(compiled.code, describeOutcome('tsc', compiled)).toBe(0);
  });

  it.each(runnable)('runs the example of %s', async (name) => {
    const entry = entries.get(name);
    if (!entry) throw new Error(`${name} has no example entry`);
    const outcome = await runExample(project, entry);
    expect(outcome.code, describeOutcome(`node ${entry}`, outcome)).toBe(0);
    expect(outcome.stdout.trim().length, `node ${entry} printed nothing`).toBeGreaterThan(0);
  });

  it('loads every export of every package with node', async () => {
    const specifiers = [...packed.values()].flatMap(({ manifest }) =>
      Object.keys(manifest.exports ?? {})
        .filter((subpath) => subpath !== './package.json')
        .map((subpath) => ({ name: manifest.name, specifier: `${manifest.name}${subpath.slice(1)}` })),
    );
    const script = [
      `const specifiers = ${JSON.stringify(specifiers.map((entry) => entry.specifier))};`,
      'const results = {};',
      'for (const specifier of specifiers) {',
      '  try { await import(specifier); results[specifier] = "ok"; }',
      '  catch (error) { results[specifier] = String(error.code) + ": " + error.message; }',
      '}',
      'console.log(JSON.stringify(results));',
    ].join('\n');
    writeFileSync(join(project, 'load-exports.mjs'), script);
    const outcome = await runCommand(process.execPath, ['load-exports.mjs'], {
      cwd: project,
      timeoutMs: 60_000,
      env: userEnvironment(),
    });
    expect(outcome.code, describeOutcome('node load-exports.mjs', outcome)).toBe(0);
    const results = JSON.parse(outcome.stdout) as Record<string, string>;
    const failures = specifiers.filter(({ name, specifier }) => {
      const result = results[specifier];
      if (result === 'ok') return false;
      // an optional peer the project did not install (an SDK the user does not use) may be missing
      const manifest = tarballOf(name).manifest;
      const optionalPeers = Object.keys(manifest.peerDependenciesMeta ?? {}).filter(
        (peer) => manifest.peerDependenciesMeta?.[peer]?.optional,
      );
      return !optionalPeers.some(
        (peer) => result?.startsWith('ERR_MODULE_NOT_FOUND') && result.includes(`'${peer}'`),
      );
    });
    expect(Object.fromEntries(failures.map(({ specifier }) => [specifier, results[specifier]]))).toEqual({});
  });

  it('answers toolplane --help through the installed bin', async () => {
    const outcome = await runCommand('npx', ['--no', '--', 'toolplane', '--help'], {
      cwd: project,
      timeoutMs: 60_000,
      env: userEnvironment(),
    });
    expect(outcome.code, describeOutcome('npx toolplane --help', outcome)).toBe(0);
    expect(outcome.stdout).toMatch(/^Usage: toolplane/m);
  });

  it('calls a built-in tool through the installed toolplane with a config of its own', async () => {
    const folder = join(work, 'cli-workspace');
    mkdirSync(folder);
    const text = `hello from ${Math.random().toString(36).slice(2)}`;
    writeFileSync(join(folder, 'hello.txt'), `${text}\n`);
    writeFileSync(join(folder, 'toolplane.config.yaml'), 'builtin: { workspace: ., tools: [read, list] }\n');
    const bin = join(project, 'node_modules', '.bin', 'toolplane');
    const outcome = await runCommand(bin, ['tools', 'call', 'read', '--args', '{"path":"hello.txt"}'], {
      cwd: folder,
      timeoutMs: 60_000,
      env: userEnvironment(),
    });
    expect(outcome.code, describeOutcome('toolplane tools call read', outcome)).toBe(0);
    expect(outcome.stdout).toContain(text);
  });
});
