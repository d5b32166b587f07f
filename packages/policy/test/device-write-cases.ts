// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { shellPolicy } from './helpers.js';

/** Generous allow rules: in bypass mode under them, anything that is neither denied nor asked runs. */
export const ALLOW = [
  'echo *',
  'cat *',
  'tee *',
  'cp *',
  'dd *',
  'sponge *',
  'rsync *',
  'sudo tee *',
  'sudo rsync *',
  'true',
  'cd *',
  'pushd *',
  'popd',
  'export *',
  'declare *',
  'ls *',
  'env *',
  'sudo *',
  'sh *',
  'bash *',
  'ln *',
  'mknod *',
  'mkdir *',
  'find *',
  'xargs *',
  'curl *',
  'wget *',
  'tar *',
  'ssh *',
  'printf *',
  'read *',
  'mapfile *',
  'readarray *',
  'f',
  'g',
  'go',
  'setup',
];

export type { Case, Expected } from './helpers.js';

/** The policy of the device-write tests: {@link shellPolicy} under {@link ALLOW} and `more`. */
export function deviceWritePolicy(id: string, more: readonly string[] = []) {
  return shellPolicy([...ALLOW, ...more], id);
}
