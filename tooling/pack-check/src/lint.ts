import { readFileSync } from 'node:fs';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import type { ResolutionKind } from '@arethetypeswrong/core/types';
import { problemKindInfo } from '@arethetypeswrong/core/problems';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

/** A publint finding, worded as publint words it. */
export interface PublintFinding {
  type: 'error' | 'warning' | 'suggestion';
  code: string;
  text: string;
}

/** Runs publint on a packed tarball: the files it checks are exactly the published ones. */
export async function publintTarball(tarball: string): Promise<PublintFinding[]> {
  const bytes = readFileSync(tarball);
  const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const result = await publint({ pack: { tarball: data }, level: 'suggestion', strict: false });
  return result.messages.map((message) => ({
    type: message.type,
    code: message.code,
    text: formatMessage(message, result.pkg, { color: false }) ?? message.code,
  }));
}

/**
 * The attw profile for toolplane's packages, as `attw --profile esm-only` applies it. They are
 * ESM only (`"type": "module"`, exports with `types` and `default`, no `require`), so the two
 * resolutions that cannot load ESM are left out: `node10` (no `exports` support) and `node16`
 * from CommonJS. `node16` from ESM and `bundler` are checked.
 */
export const attwIgnoredResolutions: readonly ResolutionKind[] = ['node10', 'node16-cjs'];

/**
 * Runs attw's analysis (`@arethetypeswrong/core`, what the `attw` command runs) on a tarball and
 * returns the problems the esm-only profile keeps, one line each.
 */
export async function attwTarball(tarball: string): Promise<string[]> {
  const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(readFileSync(tarball))));
  if (!analysis.types) return ['the package has no types'];
  return analysis.problems
    .filter(
      (problem) => !('resolutionKind' in problem) || !attwIgnoredResolutions.includes(problem.resolutionKind),
    )
    .map((problem) => {
      const where = 'entrypoint' in problem ? ` (${problem.entrypoint}, ${problem.resolutionKind})` : '';
      return `${problem.kind}${where}: ${problemKindInfo[problem.kind].shortDescription}`;
    });
}
