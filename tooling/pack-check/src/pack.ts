import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describeOutcome, runCommand } from './run-command.js';
import { type Manifest, type PublicPackage, repositoryRoot, tarballName } from './workspace.js';

/** A package packed the way it would be published. */
export interface PackedPackage {
  package: PublicPackage;
  /** Absolute path of the .tgz file. */
  tarball: string;
  /** The tarball unpacked: the folder that holds its package.json. */
  root: string;
  /** The package.json inside the tarball (workspace: ranges rewritten by pnpm). */
  manifest: Manifest;
  /** Every file in the tarball, relative to its `package/` folder, sorted. */
  files: string[];
}

/**
 * How to start pnpm: the pnpm that runs this test (turbo starts the package's script through
 * it, so `npm_execpath` names it), or pnpm 10 through npx when the test is started otherwise.
 */
function pnpmCommand(): [string, string[]] {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm/.test(execPath)) return [process.execPath, [execPath]];
  return ['npx', ['-y', 'pnpm@10']];
}

function listFiles(directory: string, root = directory): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const path = join(directory, entry);
    return statSync(path).isDirectory() ? listFiles(path, root) : [relative(root, path)];
  });
}

/**
 * Packs the packages with one `pnpm -r pack` into `destination` and unpacks each tarball next
 * to it, so its manifest and file list can be checked.
 */
export async function packPackages(packages: PublicPackage[], destination: string): Promise<PackedPackage[]> {
  const [command, prefix] = pnpmCommand();
  const filters = packages.flatMap((entry) => ['--filter', entry.name]);
  const outcome = await runCommand(
    command,
    [...prefix, '-r', ...filters, 'pack', '--pack-destination', destination],
    { cwd: repositoryRoot, timeoutMs: 120_000 },
  );
  if (outcome.code !== 0) throw new Error(describeOutcome('pnpm pack', outcome));
  const packed: PackedPackage[] = [];
  for (const entry of packages) {
    const tarball = join(destination, tarballName(entry.name, entry.version));
    const unpacked = join(
      destination,
      'unpacked',
      tarballName(entry.name, entry.version).replace(/\.tgz$/, ''),
    );
    mkdirSync(unpacked, { recursive: true });
    const untar = await runCommand('tar', ['-xzf', tarball, '-C', unpacked], {
      cwd: destination,
      timeoutMs: 30_000,
    });
    if (untar.code !== 0) throw new Error(describeOutcome(`tar -xzf ${tarball}`, untar));
    const root = join(unpacked, 'package');
    packed.push({
      package: entry,
      tarball,
      root,
      manifest: JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest,
      files: listFiles(root).sort(),
    });
  }
  return packed;
}

/** The dependency ranges of a packed manifest that still say `workspace:`. */
export function workspaceRanges(manifest: Manifest): string[] {
  const fields = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;
  return fields.flatMap((field) =>
    Object.entries(manifest[field] ?? {})
      .filter(([, range]) => range.startsWith('workspace:'))
      .map(([name, range]) => `${field}.${name}: ${range}`),
  );
}
