import type { PermissionMode } from '@toolplane/core';
import { beforeAll, expect } from 'vitest';
import { type PolicyConfig, type PolicyDecision, createPolicy } from '../../src/index.js';
import { bash, call } from '../helpers.js';

/** Every permission mode, bypass included. */
export const MODES: readonly PermissionMode[] = ['default', 'accept-edits', 'bypass', 'plan'];

/**
 * Allow rules for every command the tables use: a line they cover runs in every mode but plan
 * (`default` and `accept-edits` included), so only what the policy itself asks shows.
 */
export const ALLOW_EVERY_COMMAND = [
  'echo *',
  'printf *',
  'cat *',
  'tee *',
  'cp *',
  'mv *',
  'ln *',
  'install *',
  'rsync *',
  'sed *',
  'perl *',
  'chmod *',
  'chown *',
  'touch *',
  'truncate *',
  'dd *',
  'git *',
  'sh *',
  'bash *',
  'source *',
  '. *',
  's.sh',
  'f',
  'cd *',
  'ls *',
  'grep *',
  'rm *',
  'curl *',
  'python3 *',
  'node *',
  'zsh *',
  'base64 *',
  'true',
];

/** A policy under {@link ALLOW_EVERY_COMMAND}, its parser loaded before the tests of the file. */
export function everyModePolicy(id: string, config: PolicyConfig = {}) {
  const policy = createPolicy({ ...config, commands: { allow: ALLOW_EVERY_COMMAND, ...config.commands } });
  beforeAll(async () => {
    await policy.check(call(bash, { command: 'true' }));
  });
  let session = 0;
  const judge = (command: string, mode: PermissionMode): Promise<PolicyDecision> =>
    policy.check(call(bash, { command }, { mode, id: `${id}-${mode}-${session++}` }));
  return { policy, judge };
}

/** The verdict a line the policy asks gets in a mode: plan denies every shell command. */
export const askedIn = (mode: PermissionMode): 'ask' | 'deny' => (mode === 'plan' ? 'deny' : 'ask');

/** Checks a decision and, outside plan mode (where the mode decides), its reason code and text. */
export function expectDecision(
  decision: PolicyDecision,
  mode: PermissionMode,
  expected: 'allow' | 'ask' | 'deny',
  code: string,
  reason?: RegExp,
): void {
  expect(decision.decision, decision.reason).toBe(expected);
  if (mode === 'plan' && expected === 'deny' && decision.reasonCode === 'plan-mode') return;
  expect(decision.reasonCode, decision.reason).toBe(code);
  if (reason) expect(decision.reason).toMatch(reason);
}
