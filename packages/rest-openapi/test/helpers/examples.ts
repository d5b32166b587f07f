import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Folder of the `@readme/oas-examples` documents (a devDependency). */
export const EXAMPLES = join(import.meta.dirname, '../../node_modules/@readme/oas-examples');

/** Path of one example document, like `example('3.0', 'petstore.json')`. */
export function example(version: '2.0' | '3.0' | '3.1', file: string): string {
  const format = file.endsWith('.yaml') ? 'yaml' : 'json';
  const path = join(EXAMPLES, version, format, file);
  if (!existsSync(path)) throw new Error(`missing example ${path}; run pnpm install`);
  return path;
}

/** Every JSON example document of a version. */
export function allExamples(version: '2.0' | '3.0' | '3.1'): string[] {
  const folder = join(EXAMPLES, version, 'json');
  return readdirSync(folder)
    .filter((file) => file.endsWith('.json'))
    .map((file) => join(folder, file));
}

/** GitHub's REST description from `@octokit/openapi` (a devDependency). */
export const GITHUB_DESCRIPTION = join(
  import.meta.dirname,
  '../../node_modules/@octokit/openapi/generated/api.github.com.json',
);
