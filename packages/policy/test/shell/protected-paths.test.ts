import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PROTECTED_PATHS,
  analyzeCommandLine,
  compileProtectedPaths,
  createPolicy,
  loadShellParser,
} from '../../src/index.js';
import { bash, call } from '../helpers.js';
import { MODES, askedIn, everyModePolicy, expectDecision } from './every-mode.js';

/**
 * Protected paths (git hooks and config, shell start-up files, MCP and toolplane config) are
 * never written by a shell command without asking, in every mode, bypass included, and whatever
 * allow rule covers the command. Each line runs under allow rules for every command it uses.
 */
const { judge } = everyModePolicy('protected-paths');
const CODE = 'protected-path-write';

/** A line, and the protected path or pattern its reason must name. */
const WRITES: readonly (readonly [string, RegExp])[] = [
  [
    'echo ok > .git/hooks/pre-commit',
    /writes \.git\/hooks\/pre-commit, a protected path \(\.git\/hooks\/\*\*\)/,
  ],
  ['echo ok >> .git/hooks/post-checkout', /\.git\/hooks\/post-checkout/],
  ['echo x > .git/config', /\.git\/config/],
  ["echo 'alias ls=rm' >> ~/.bashrc", /~\/\.bashrc/],
  ['echo x >> .bash_profile', /\.bash_profile/],
  ['echo x > .profile', /\.profile/],
  ['echo x >> .zshrc', /\.zshrc/],
  ['echo x > .zprofile', /\.zprofile/],
  ['echo "export X=1" > .envrc', /\.envrc/],
  ['echo {} > .mcp.json', /\.mcp\.json/],
  ['echo {} > .vscode/mcp.json', /\.vscode\/mcp\.json/],
  ['echo {} > .cursor/mcp.json', /\.cursor\/mcp\.json/],
  ['echo {} > toolplane.config.json', /toolplane\.config\.json, a protected path \(toolplane\.config\.\*\)/],
  ['echo x: 1 > toolplane.config.yaml', /toolplane\.config\.yaml/],
  ['echo [] > .toolplane/allow-list.json', /\.toolplane\/allow-list\.json/],
  ['echo ok | tee .git/hooks/pre-commit', /\.git\/hooks\/pre-commit/],
  ['echo ok | tee -a log .git/hooks/pre-push', /\.git\/hooks\/pre-push/],
  ["cat > .git/hooks/pre-commit <<'EOF'\n#!/bin/sh\nexit 0\nEOF", /\.git\/hooks\/pre-commit/],
  ["printf '#!/bin/sh\\n' > .git/hooks/pre-commit", /\.git\/hooks\/pre-commit/],
  ['cp hook.sh .git/hooks/pre-commit', /\.git\/hooks\/pre-commit/],
  ['cp -t .git/hooks pre-commit', /\.git\/hooks\/pre-commit/],
  ['mv hook.sh .git/hooks/pre-commit', /\.git\/hooks\/pre-commit/],
  ['mv .git/config config.old', /\.git\/config/],
  ['ln -s ../../hook.sh .git/hooks/pre-commit', /\.git\/hooks\/pre-commit/],
  ['ln -sf /tmp/rc ~/.zshrc', /~\/\.zshrc/],
  ['install -m 755 hook.sh .git/hooks/pre-commit', /\.git\/hooks\/pre-commit/],
  ['rsync -a hooks/ .git/hooks/', /\.git\/hooks/],
  ["sed -i 's/a/b/' .git/config", /\.git\/config/],
  ["sed -i.bak -e 's/a/b/' .bashrc", /\.bashrc/],
  ["perl -pi -e 's/a/b/' .envrc", /\.envrc/],
  ['git config core.hooksPath /tmp/hooks', /\.git\/config/],
  ['git config --unset user.name', /\.git\/config/],
  ['git -C sub config alias.st status', /sub\/\.git\/config/],
  ['git config --global core.pager less', /~\/\.gitconfig/],
  ['chmod +x .git/hooks/pre-commit', /\.git\/hooks\/pre-commit/],
  ['truncate -s 0 .mcp.json', /\.mcp\.json/],
  ['git config --file cfg/.gitconfig a.b c', /cfg\/\.gitconfig/],
  ["echo 'x' >| .bashrc", /\.bashrc/],
  ['touch .git/hooks/pre-commit', /\.git\/hooks\/pre-commit/],
  ['dd of=.git/hooks/pre-commit < hook.sh', /\.git\/hooks\/pre-commit/],
  ['echo ok > ./.git//hooks/x', /writes \.git\/hooks\/x/],
  ['echo ok > a/../.git/hooks/x', /writes \.git\/hooks\/x/],
  ["echo ok > '.git/hooks/pre-commit'", /\.git\/hooks\/pre-commit/],
  ['echo ok > ".git"/hooks/pre-commit', /\.git\/hooks\/pre-commit/],
  ['echo ok > \\.git/hooks/pre-commit', /\.git\/hooks\/pre-commit/],
  ['cd .git/hooks && echo ok > pre-commit', /\.git\/hooks\/pre-commit/],
  ['D=.git/hooks; echo ok > "$D/pre-commit"', /\.git\/hooks\/pre-commit/],
  ['echo x >> "$HOME/.bashrc"', /a path named at run time that ends in \/\.bashrc/],
  ['echo x > sub/project/.git/hooks/pre-commit', /sub\/project\/\.git\/hooks\/pre-commit/],
  ['cp -r my-hooks .git', /writes into \.git, a directory that holds protected paths/],
  ['mv .git .git-old', /\.git/],
  ['true && (echo ok > .git/hooks/pre-commit)', /\.git\/hooks\/pre-commit/],
  ["bash -c 'echo ok > .git/hooks/pre-commit'", /\.git\/hooks\/pre-commit/],
];

describe('a shell write to a protected path is asked in every mode', () => {
  for (const mode of MODES)
    it.each(WRITES)(`in ${mode} mode, %j is asked`, async (command, reason) => {
      expectDecision(await judge(command, mode), mode, askedIn(mode), CODE, reason);
    });
});

describe('reading protected paths and writing other files stay as before', () => {
  const READS = [
    'cat .git/config',
    'git status',
    'git config --get user.name',
    'git config user.name',
    'git config --list',
    'git config get user.email',
    'ls .git/hooks',
    'cat .bashrc | grep alias',
    'cp .git/config config.backup',
    'sed -n 1p .git/config',
    'sed s/a/b/ .bashrc',
    'cat .mcp.json',
    'ln -s .git/hooks/pre-commit hook-link',
  ];
  it.each(READS)('%j is allowed in default mode under its allow rule', async (command) => {
    expectDecision(await judge(command, 'default'), 'default', 'allow', 'allow-rule');
  });
  it.each([...READS, 'echo notes > notes.txt', 'echo x > .git-notes', 'echo x > hooks/pre-commit'])(
    '%j runs in bypass mode',
    async (command) => {
      const decision = await judge(command, 'bypass');
      expect(decision.decision, decision.reason).toBe('allow');
    },
  );
  it('a redirection into notes.txt is allowed in accept-edits mode and asked in default mode, as any', async () => {
    expect((await judge('echo notes > notes.txt', 'accept-edits')).decision).toBe('allow');
    const asked = await judge('echo notes > notes.txt', 'default');
    expectDecision(asked, 'default', 'ask', 'redirection-writes');
  });
  it('a device write is still denied, not merely asked, when a protected path is written too', async () => {
    const decision = await judge('echo x > .bashrc; cp img /dev/sda', 'bypass');
    expectDecision(decision, 'bypass', 'deny', 'disk-destruction');
  });
});

describe('the protected paths are configurable', () => {
  it('exports the default list: git hooks and config, shell rc files, MCP and toolplane config', () => {
    for (const path of ['.git/hooks/**', '.git/config', '.bashrc', '.zshrc', '.envrc', '.mcp.json'])
      expect(DEFAULT_PROTECTED_PATHS).toContain(path);
    expect(DEFAULT_PROTECTED_PATHS).toContain('toolplane.config.*');
    expect(DEFAULT_PROTECTED_PATHS).toContain('.toolplane/**');
  });

  it('commands.protectedPaths replaces the list: an added path is asked, a dropped one is not', async () => {
    const policy = createPolicy({
      mode: 'bypass',
      commands: { protectedPaths: ['deploy/**', '/etc/hosts'] },
    });
    const decide = (command: string) => policy.check(call(bash, { command }));
    const added = await decide('echo x > deploy/prod.yaml');
    expect(added.decision).toBe('ask');
    expect(added.reasonCode).toBe(CODE);
    expect(added.reason).toMatch(/deploy\/prod\.yaml, a protected path \(deploy\/\*\*\)/);
    expect((await decide('echo 127.0.0.1 x >> /etc/hosts')).decision).toBe('ask');
    // A pattern with a leading / matches from the root only.
    expect((await decide('echo x >> etc/hosts')).decision).toBe('allow');
    expect((await decide('echo ok > .git/hooks/pre-commit')).decision).toBe('allow');
  });

  it('an empty list turns the check off; the default list can be extended', async () => {
    const off = createPolicy({ mode: 'bypass', commands: { protectedPaths: [] } });
    expect((await off.check(call(bash, { command: 'echo x > .bashrc' }))).decision).toBe('allow');
    const more = createPolicy({
      mode: 'bypass',
      commands: { protectedPaths: [...DEFAULT_PROTECTED_PATHS, '.npmrc'] },
    });
    expect((await more.check(call(bash, { command: 'echo x > .npmrc' }))).decision).toBe('ask');
    expect((await more.check(call(bash, { command: 'echo x > .bashrc' }))).decision).toBe('ask');
  });

  it.each([[''], ['  '], ['.'], ['/'], ['./']])(
    'a pattern %j that names no path is CONFIG_INVALID',
    (pattern) => {
      expect(() => createPolicy({ commands: { protectedPaths: [pattern] } })).toThrow(
        expect.objectContaining({
          code: 'CONFIG_INVALID',
          message: expect.stringMatching(/protectedPaths\[0\]/),
        }),
      );
    },
  );

  it('a list that is not an array of strings is CONFIG_INVALID', () => {
    expect(() => createPolicy({ commands: { protectedPaths: '.bashrc' as unknown as string[] } })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
  });

  it('analyzeCommandLine reports the protected write as an ask finding, with its own list too', async () => {
    const parser = await loadShellParser();
    const findings = analyzeCommandLine(parser, 'echo x > .git/config').findings;
    expect(findings).toEqual([expect.objectContaining({ kind: 'ask', category: CODE })]);
    const own = analyzeCommandLine(parser, 'echo x > secrets.env', {
      protectedPaths: compileProtectedPaths(['*.env']),
    });
    expect(own.findings).toEqual([expect.objectContaining({ kind: 'ask', category: CODE })]);
    expect(() => compileProtectedPaths([''])).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
  });
});
