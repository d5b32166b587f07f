import { describe, expect, it } from 'vitest';
import {
  type CommandPattern,
  analyzeCommandLine,
  checkCommandLine,
  compileCommandPattern,
  loadShellParser,
} from '../src/index.js';

// A policy may carry many command rules (a generated deny list of 1,000,000 tools). A rule can
// only match a command with its name (or one named at run time), so only those rules are tried:
// trying every rule against every command, each parsing the command's options, would cost about
// 0.3 s of CPU per shell call with 100,000 deny rules. These tests count the rules tried, not time.

/** Real compiled patterns, each counting the commands it was asked about. */
function counted(sources: readonly string[]): { patterns: CommandPattern[]; tried: () => number } {
  let tried = 0;
  const patterns = sources.map((source) => {
    const pattern = compileCommandPattern(source);
    return {
      ...pattern,
      matchDeny: (command: Parameters<CommandPattern['matchDeny']>[0]) => {
        tried++;
        return pattern.matchDeny(command);
      },
      matchAllow: (command: Parameters<CommandPattern['matchAllow']>[0]) => {
        tried++;
        return pattern.matchAllow(command);
      },
    };
  });
  return { patterns, tried: () => tried };
}

const others = Array.from({ length: 100_000 }, (_, i) => `tool${i} --force *`);

describe('many command rules', () => {
  it('tries only the rules for the command names in the line, and decides by them', async () => {
    const parser = await loadShellParser();
    const deny = counted([...others, 'git push --force *', 'chmod -R *', '*ctl stop *']);
    const ask = counted([...others, 'git rebase *']);
    const allow = counted([...others, 'git status', 'git diff *', 'ls *']);
    const rules = {
      allow: allow.patterns,
      ask: ask.patterns,
      deny: deny.patterns,
      disabledDefaults: new Set<never>(),
    };
    const check = (line: string) => checkCommandLine(analyzeCommandLine(parser, line), rules);

    expect(check('git status && git diff HEAD').verdict).toBe('allow');
    expect(check('git push --force origin main')).toMatchObject({
      verdict: 'deny',
      reason: expect.stringContaining('git push --force *'),
    });
    expect(check('git rebase -i HEAD~3')).toMatchObject({
      verdict: 'ask',
      reason: expect.stringContaining('git rebase *'),
    });
    expect(check('systemctl stop nginx')).toMatchObject({
      verdict: 'deny',
      reason: expect.stringContaining('*ctl stop *'),
    });
    expect(check('/bin/chmod -R 755 build')).toMatchObject({
      verdict: 'deny',
      reason: expect.stringContaining('chmod -R *'),
    });
    expect(check('tool99999 --force x')).toMatchObject({
      verdict: 'deny',
      reason: expect.stringContaining('tool99999 --force *'),
    });
    const tried = () => deny.tried() + ask.tried() + allow.tried();
    expect(tried()).toBeLessThan(200);
    // A command named at run time may be any of them: every deny rule is tried.
    expect(check('$CMD --force x').verdict).toBe('ask');
    expect(deny.tried()).toBeGreaterThanOrEqual(100_003);
  });
});
