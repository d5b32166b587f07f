import { type RegisteredTool, createToolContext, ok } from '@toolplane/core';
import { createCallbackApprovalChannel, createPolicy, policyMiddleware } from '../src/index.js';

// A registry as the orchestrator holds it (normally built from providers).
const tool = (
  name: string,
  spec: Partial<RegisteredTool['spec']>,
  namespace = 'builtin',
  kind = 'builtin',
): RegisteredTool => ({
  name,
  localName: name,
  spec: { name, description: name, inputSchema: { type: 'object' }, ...spec },
  provider: { namespace, kind },
});
const registry = [
  tool('read', { groups: ['fs'], sideEffect: 'read' }),
  tool('write', { groups: ['fs'], sideEffect: 'mutating' }),
  tool('bash', { groups: ['runtime'], sideEffect: 'spawns', commandArgument: 'command' }),
  tool('web_fetch', { groups: ['web'], sideEffect: 'network' }),
  tool('github__search_code', { annotations: { readOnlyHint: true } }, 'github', 'mcp'),
  tool('github__delete_repo', { annotations: { destructiveHint: true } }, 'github', 'mcp'),
];

// 1. A profile, a provider override, a deny pattern and per-agent lists.
const policy = createPolicy({
  profile: 'coding',
  byProvider: { github: { profile: 'full' } },
  deny: ['github__delete_*'],
  agents: { reviewer: { allow: ['read', 'group:mcp'] } },
  commands: { allow: ['git status', 'git diff *', 'npm test'], deny: ['git push --force *'] },
});
const coder = { principal: { agentId: 'coder' }, session: { id: 's1', depth: 0 } };
console.log(policy.filter(registry, coder).map((entry) => entry.name));
// [ 'read', 'write', 'bash', 'github__search_code' ]
console.log(
  policy.filter(registry, { ...coder, principal: { agentId: 'reviewer' } }).map((entry) => entry.name),
);
// [ 'read', 'github__search_code' ]

// 2. Why does the coder not see github__delete_repo?
console.log(policy.explain('github__delete_repo', coder).text);

// 3. The gate with an approval flow.
const gate = policyMiddleware(policy, {
  approvalTimeoutMs: 5_000,
  approvals: createCallbackApprovalChannel((request) => {
    console.log(
      `asked: ${request.command} (${request.reason}); allow-always would add "${request.suggestedRule}"`,
    );
    return 'allow-always';
  }),
});
const bash = registry[2] as RegisteredTool;
const run = (command: string) =>
  gate.handle?.(
    { tool: bash, args: { command }, ctx: createToolContext({ session: { id: 's1' } }) },
    async () => ok(`ran ${command}`),
  );
console.log(await run('git status && npm test')); // allowed by the rules
console.log(await run('git status; rm -rf /')); // DENIED: default rule
console.log(await run('make build')); // asked, allow-always
console.log(await run('make build --jobs 4')); // allowed now: "make build *" is on the allow-list
console.log(policy.allowList.snapshot());
