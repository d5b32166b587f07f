import {
  type PermissionMode,
  type RegisteredTool,
  type ToolCall,
  type ToolSpec,
  type ToolView,
  createToolContext,
  ok,
} from '@toolplane/core';
import { beforeAll, expect } from 'vitest';
import { type Policy, createPolicy, policyMiddleware } from '../src/index.js';

/** A registered tool for tests: public name, provider and spec fields. */
export function tool(
  name: string,
  options: Partial<Omit<ToolSpec, 'name'>> & { namespace?: string; kind?: string; localName?: string } = {},
): RegisteredTool {
  const { namespace = 'builtin', kind = 'builtin', localName, ...spec } = options;
  return {
    name,
    localName: localName ?? name,
    spec: { description: `${name} tool`, inputSchema: { type: 'object' }, ...spec, name },
    provider: { namespace, kind },
  };
}

/** A view: agent, channel, depth. */
export function view(agentId?: string, depth = 0, channel?: string): ToolView {
  return {
    principal: { ...(agentId ? { agentId } : {}), ...(channel ? { channel } : {}) },
    session: { id: `session-${agentId ?? 'none'}-${depth}`, depth },
  };
}

/** A call of a tool with arguments, in a session with a mode. */
export function call(
  target: RegisteredTool,
  args: Record<string, unknown> = {},
  session: { id?: string; mode?: PermissionMode; depth?: number; parentId?: string; agentId?: string } = {},
  signal?: AbortSignal,
): ToolCall {
  return {
    tool: target,
    args,
    ctx: createToolContext({
      principal: session.agentId ? { agentId: session.agentId } : {},
      session: {
        id: session.id ?? 'session-test',
        depth: session.depth ?? 0,
        ...(session.mode ? { mode: session.mode } : {}),
        ...(session.parentId ? { parentId: session.parentId } : {}),
      },
      ...(signal ? { signal } : {}),
    }),
  };
}

/** The shell tool as the builtin provider describes it. */
export const bash: RegisteredTool = tool('bash', {
  sideEffect: 'spawns',
  groups: ['runtime'],
  commandArgument: 'command',
});

/** What a line must get in bypass mode in a verdict table. */
export type Expected = 'deny' | 'ask';
/** A command line, the verdict it must get in bypass mode, and what the reason must say. */
export type Case = readonly [string, Expected, RegExp];

/**
 * A policy under command allow rules, warmed up before the tests of the file (the first check
 * loads the shell parser), with shortcuts that judge one shell line in bypass mode and in the
 * default mode, in sessions named after `id`, and the checks of the verdict tables: a case
 * judged in bypass mode, a line that must stay allowed in the default mode, one that must run
 * (be allowed) in bypass mode and one that must be asked there.
 */
export function shellPolicy(allow: string[], id: string) {
  const policy = createPolicy({ commands: { allow } });
  beforeAll(async () => {
    await policy.check(call(bash, { command: 'true' }));
  });
  const inBypass = (command: string) => policy.check(call(bash, { command }, { mode: 'bypass', id }));
  const inDefault = (command: string) => policy.check(call(bash, { command }, { id: `${id}-default` }));
  const decides =
    (judge: typeof inBypass, expected: 'allow' | 'ask') =>
    async (command: string): Promise<void> => {
      const decision = await judge(command);
      expect(decision.decision, decision.reason).toBe(expected);
    };
  return {
    policy,
    inBypass,
    inDefault,
    expectVerdict: async ([command, expected, reason]: Case): Promise<void> => {
      const decision = await inBypass(command);
      expect(decision.decision, decision.reason).toBe(expected);
      expect(decision.reason).toMatch(reason);
    },
    allowedInDefault: decides(inDefault, 'allow'),
    runsInBypass: decides(inBypass, 'allow'),
    askedInBypass: decides(inBypass, 'ask'),
  };
}

/** Generous allow rules: in bypass mode under them, anything that is neither denied nor asked runs. */
export const DEVICE_WRITE_ALLOW = [
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

/** The policy of the device-write tests: {@link shellPolicy} under {@link DEVICE_WRITE_ALLOW} and `more`. */
export function deviceWritePolicy(id: string, more: readonly string[] = []) {
  return shellPolicy([...DEVICE_WRITE_ALLOW, ...more], id);
}

/** Debuggers, archivers and other writers allowed outright by the wide writer policies. */
export const WIDE_WRITERS: readonly string[] = [
  'valgrind *',
  'catchsegv *',
  'blkdiscard *',
  'tar *',
  'install *',
  'xxd *',
  'toybox *',
  'rust-gdb *',
  'rust-lldb *',
  'cgdb *',
  'gdbserver *',
];

/** Ownership, move, removal and extraction commands added to the device-write allow rules. */
export const OWNER_AND_MOVE_COMMANDS: readonly string[] = [
  'chmod *',
  'chown *',
  'chgrp *',
  'mv *',
  'rm *',
  'unzip *',
  'awk *',
];

/** Generous allow rules for the tests of programs that write files, `sysctl` and debuggers. */
export const WRITER_ALLOW = [
  'echo *',
  'cat *',
  'tee *',
  'cp *',
  'dd *',
  'sponge *',
  'curl *',
  'wget *',
  'sort *',
  'sudo tee *',
  'sudo cp *',
  'sysctl *',
  'gdb *',
  'lldb *',
  'ls *',
  'true',
];

/** {@link shellPolicy} under {@link WRITER_ALLOW} and `more`. */
export function writerPolicy(id: string, more: readonly string[] = []) {
  return shellPolicy([...WRITER_ALLOW, ...more], id);
}

/**
 * Sends one shell line through the policy gate with no approval channel and expects it to fail
 * APPROVAL_REQUIRED with a message matching `message`, the tool never running.
 */
export async function expectGateRefuses(
  policy: Policy,
  command: string,
  sessionId: string,
  message: RegExp,
): Promise<void> {
  const gate = policyMiddleware(policy);
  let ran = false;
  const result = await gate.handle?.(
    { tool: bash, args: { command }, ctx: createToolContext({ session: { id: sessionId } }) },
    async () => {
      ran = true;
      return ok('ran');
    },
  );
  expect(ran).toBe(false);
  expect(result?.ok).toBe(false);
  if (result && !result.ok) {
    expect(result.error.code).toBe('APPROVAL_REQUIRED');
    expect(result.error.message).toMatch(message);
  }
}
