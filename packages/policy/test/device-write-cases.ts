// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { expect } from 'vitest';
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

export type Expected = 'deny' | 'ask';
/** A command line, the verdict it must get in bypass mode, and what the reason must say. */
export type Case = readonly [string, Expected, RegExp];

/**
 * The policy of the device-write tests (see {@link shellPolicy}) with two checks: a case judged
 * in bypass mode, and a near miss that must stay allowed in the default mode.
 */
export function deviceWritePolicy(id: string) {
  const shell = shellPolicy(ALLOW, id);
  return {
    ...shell,
    expectVerdict: async ([command, expected, reason]: Case): Promise<void> => {
      const decision = await shell.inBypass(command);
      expect(decision.decision, decision.reason).toBe(expected);
      expect(decision.reason).toMatch(reason);
    },
    allowedInDefault: async (command: string): Promise<void> => {
      const decision = await shell.inDefault(command);
      expect(decision.decision, decision.reason).toBe('allow');
    },
  };
}
