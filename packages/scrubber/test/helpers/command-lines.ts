// Shared by the tests of passwords on command lines: fakes, `bash -x` traces, form tables.
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

const run = promisify(execFile);
const fake = createFakeSource();

/** A user name, generated at test time. */
export const user = `svc-${fake.chars('abcdefghijklmnopqrstuvwxyz', 6)}`;
/** A password, generated at test time. */
export const password = `${fake.chars(ALPHABETS.alnum, 14)}7`;
/** Secrets to trace: one plain, and one that makes bash quote the word in its trace. */
export const tracedSecrets = [
  password,
  `${fake.chars(ALPHABETS.alnum, 10)}!$${fake.chars(ALPHABETS.alnum, 4)}`,
];
export const scrubber = createScrubber();
export const marker = '[REDACTED:password]';

/**
 * What `bash -x` prints for `commands`, run with each of `names` defined as a shell function that
 * does nothing (the trace is bash's own; those tools need not be installed), `$SECRET` set to
 * `secret`, `$SECRET_USER` to {@link user}, and `env` added. Undefined (skipped) when bash is
 * missing, except under CI; a failing command fails the test.
 */
export async function trace(
  names: readonly string[],
  commands: readonly string[],
  secret: string,
  env: Readonly<Record<string, string>> = {},
): Promise<string | undefined> {
  const script = [...names.map((name) => `${name}() { :; }`), 'set -x', ...commands].join('; ');
  try {
    // In the temp directory: a traced command's redirection creates its file there, not here.
    const { stderr } = await run('bash', ['-c', script], {
      cwd: tmpdir(),
      env: { ...process.env, ...env, SECRET: secret, SECRET_USER: user },
    });
    return stderr;
  } catch (error) {
    // Only a missing bash skips: a command that fails is a failing test.
    if (process.env.CI === 'true' || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    console.warn(`skipped: bash is not available (${String(error)})`);
    return undefined;
  }
}

/**
 * For each of {@link tracedSecrets}: asserts that the {@link trace} of `commands` shows the secret
 * and that its scrubbed text does not, then hands that text and the kinds of the findings to
 * `check`. Returns early (skipped) when {@link trace} does.
 */
export async function expectTracesScrubbed(
  names: readonly string[],
  commands: readonly string[],
  check: (text: string, kinds: readonly string[]) => void,
): Promise<void> {
  for (const secret of tracedSecrets) {
    const stderr = await trace(names, commands, secret);
    if (stderr === undefined) return;
    expect(stderr).toContain(secret);
    const { text, findings } = scrubber.scrub(stderr);
    expect(text).not.toContain(secret);
    check(
      text,
      findings.map((finding) => finding.kind),
    );
  }
}

/** Asserts that every case scrubs to its expected text, `#` standing for `[REDACTED:<kind>]`. */
export function expectForms(cases: readonly (readonly [string, string])[], kind = 'password'): void {
  for (const [text, expected] of cases)
    expect(scrubber.scrubText(text), text).toBe(expected.replace('#', `[REDACTED:${kind}]`));
}

/** Asserts that no case is touched. */
export function expectLeftAlone(texts: readonly string[]): void {
  for (const text of texts) expect(scrubber.scrub(text).findings, text).toEqual([]);
}
