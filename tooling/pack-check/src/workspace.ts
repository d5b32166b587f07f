import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root: two folders above this package. */
export const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The parts of a package.json this check reads. */
export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  bin?: string | Record<string, string>;
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** A package of the workspace that is published. */
export interface PublicPackage {
  name: string;
  version: string;
  /** Absolute path of the package's folder. */
  directory: string;
  manifest: Manifest;
}

/** The folders that hold publishable packages (tooling/ and examples/ are private by rule). */
const publishedFolders = ['packages', 'apps'];

export function readManifest(directory: string): Manifest {
  return JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as Manifest;
}

/** Every package under packages/ and apps/ that is not private, sorted by name. */
export function publicPackages(root = repositoryRoot): PublicPackage[] {
  const found: PublicPackage[] = [];
  for (const folder of publishedFolders) {
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      const directory = join(root, folder, entry.name);
      if (!entry.isDirectory() || !existsSync(join(directory, 'package.json'))) continue;
      const manifest = readManifest(directory);
      if (manifest.private) continue;
      found.push({ name: manifest.name, version: manifest.version, directory, manifest });
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** The file name `pnpm pack` gives a package's tarball: `@scope/name` 1.0.0 -> `scope-name-1.0.0.tgz`. */
export function tarballName(name: string, version: string): string {
  return `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
}
