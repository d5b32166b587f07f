// Benchmark: filtering 10,000 tools through a 200-rule policy, and the per-call gate.
// Run: pnpm --filter @toolplane/policy bench
import { performance } from 'node:perf_hooks';
import { type RegisteredTool, type ToolCall, createToolContext, ok } from '@toolplane/core';
import { result, summarize, timeAsync } from '@toolplane/bench';
import { type PolicyConfig, createPolicy, loadShellParser, policyMiddleware } from '../src/index.js';

const TOOL_COUNT = 10_000;
const SERVERS = 50;

function makeTools(): RegisteredTool[] {
  const tools: RegisteredTool[] = [];
  for (let index = 0; index < TOOL_COUNT; index++) {
    const server = `server${index % SERVERS}`;
    const local = `tool_${index}`;
    const name = `mcp__${server}__${local}`;
    tools.push({
      name,
      localName: local,
      spec: {
        name,
        description: `tool ${index}`,
        inputSchema: { type: 'object' },
        groups: ['mcp', `mcp:${server}`],
        annotations: { readOnlyHint: index % 3 === 0 },
      },
      provider: { namespace: server, kind: 'mcp' },
    });
  }
  return tools;
}

/** 200 rules spread over every step of the pipeline. */
function makeConfig(): PolicyConfig {
  const names = (from: number, count: number) =>
    Array.from(
      { length: count },
      (_, offset) => `mcp__server${(from + offset) % SERVERS}__tool_${from + offset}`,
    );
  return {
    profile: 'wide',
    profiles: { wide: ['group:mcp', ...names(0, 19)] }, // 20
    allow: ['mcp__*', ...names(100, 29)], // 30
    byProvider: Object.fromEntries(
      Array.from({ length: 10 }, (_, index) => [
        `server${index}`,
        { allow: [`mcp__server${index}__tool_*`, ...names(200 + index * 2, 2)] },
      ]),
    ), // 30
    deny: [
      ...Array.from({ length: 20 }, (_, index) => `mcp__server${index}__tool_${index}9*`),
      ...names(400, 20),
    ], // 40
    alsoAllow: names(500, 20), // 20
    agents: {
      coder: {
        allow: ['group:mcp', ...names(600, 19)], // 20
        deny: [...names(700, 20)], // 20
        alsoAllow: names(800, 10), // 10
      },
    },
    channels: { public: { allow: ['group:mcp', ...names(900, 9)] } }, // 10
  };
}

const tools = makeTools();
const config = makeConfig();
const ruleCount = (JSON.stringify(config).match(/"(mcp__|group:)[^"]*"/g) ?? []).length;
const policy = createPolicy(config);
const view = { principal: { agentId: 'coder', channel: 'public' }, session: { id: 'bench', depth: 0 } };

// Filtering: the policy against a baseline filter (one Set lookup per tool).
const baselineSet = new Set(tools.filter((_, index) => index % 2 === 0).map((tool) => tool.name));
// Wall-clock samples, plus the CPU time the process used per round: on a shared, loaded machine
// the CPU time is the steadier figure (wall time includes waiting for a core).
const cpuPerRoundMs = new Map<string, number>();
const timeSync = (
  fn: () => unknown,
  rounds: number,
  warmup = 5,
  label?: string,
): ReturnType<typeof summarize> => {
  const samples: number[] = [];
  let cpu = 0;
  for (let round = 0; round < rounds + warmup; round++) {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    fn();
    if (round >= warmup) {
      samples.push((performance.now() - start) * 1000);
      const used = process.cpuUsage(cpuStart);
      cpu += (used.user + used.system) / 1000;
    }
  }
  if (label) cpuPerRoundMs.set(label, cpu / rounds);
  return summarize(samples);
};
const coldStart = performance.now();
const visibleCount = policy.filter(tools, view).length;
const coldMs = performance.now() - coldStart;
// Cold: every round filters 10,000 tool objects the policy has never seen (a new registry).
const freshRegistries = Array.from({ length: 25 }, () => makeTools());
let fresh = 0;
const filterStats = timeSync(
  () => policy.filter(freshRegistries[fresh++ % freshRegistries.length] as RegisteredTool[], view),
  20,
  5,
  'filter',
);
// Warm: a new array of known tool objects (a registry that gained or lost a server).
const warmStats = timeSync(() => policy.filter(tools.slice(), view), 100, 5, 'warm');
const cachedStats = timeSync(() => policy.filter(tools, view), 100);
const baselineStats = timeSync(
  () => tools.slice().filter((tool) => baselineSet.has(tool.name)),
  100,
  5,
  'baseline',
);

// What one would write by hand: every list as an array of matchers, tried one by one per tool.
type Matcher = (tool: RegisteredTool) => boolean;
const matcher = (ref: string): Matcher => {
  if (ref.startsWith('group:')) {
    const group = ref.slice(6);
    return (tool) => tool.spec.groups?.includes(group) ?? false;
  }
  const regex = new RegExp(`^${ref.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  return (tool) => regex.test(tool.name);
};
const list = (refs: readonly string[] | undefined): Matcher[] | undefined => refs?.map(matcher);
const naive = {
  profile: list(config.profiles?.wide) as Matcher[],
  allow: list(config.allow),
  providers: new Map(
    Object.entries(config.byProvider ?? {}).map(([name, entry]) => [name, list(entry.allow)]),
  ),
  agentAllow: list(config.agents?.coder?.allow),
  channel: list(config.channels?.public?.allow),
  deny: [...(list(config.deny) ?? []), ...(list(config.agents?.coder?.deny) ?? [])],
  also: [...(list(config.alsoAllow) ?? []), ...(list(config.agents?.coder?.alsoAllow) ?? [])],
};
const any = (matchers: Matcher[] | undefined, tool: RegisteredTool): boolean =>
  matchers === undefined || matchers.some((match) => match(tool));
const naiveFilter = (registry: readonly RegisteredTool[]): RegisteredTool[] =>
  registry.filter((tool) => {
    if (naive.deny.some((match) => match(tool))) return false;
    const allowed =
      any(naive.profile, tool) &&
      any(naive.allow, tool) &&
      any(naive.providers.get(tool.provider.namespace), tool) &&
      any(naive.agentAllow, tool) &&
      any(naive.channel, tool);
    return allowed || naive.also.some((match) => match(tool));
  });
if (naiveFilter(tools).length !== visibleCount)
  throw new Error('the hand-written baseline disagrees with the policy');
const naiveStats = timeSync(
  () => naiveFilter(freshRegistries[fresh++ % freshRegistries.length] as RegisteredTool[]),
  20,
  5,
  'naive',
);
const cpu = (label: string): string => `cpu ${(cpuPerRoundMs.get(label) ?? Number.NaN).toFixed(2)} ms`;
console.log(
  `${TOOL_COUNT} tools, ${ruleCount} rules, ${visibleCount} visible; first filter (computes groups) ${coldMs.toFixed(2)} ms`,
);
console.log(
  `filter of unseen tools median ${(filterStats.medianUs / 1000).toFixed(2)} ms, p99 ${(filterStats.p99Us / 1000).toFixed(2)} ms, ${cpu('filter')}`,
);
console.log(
  `baseline Array.filter + Set.has median ${(baselineStats.medianUs / 1000).toFixed(3)} ms, ${cpu('baseline')}`,
);
console.log(
  `hand-written rule loop over the same rules median ${(naiveStats.medianUs / 1000).toFixed(2)} ms, ${cpu('naive')}`,
);
console.log(`new array of known tools median ${(warmStats.medianUs / 1000).toFixed(2)} ms, ${cpu('warm')}`);
console.log(`same registry array again (answer reused) median ${cachedStats.medianUs.toFixed(1)} us`);

// The gate: a call through the policy middleware (read-only tool, auto-allowed) against calling `next` directly.
const target = tools[3] as RegisteredTool;
const gate = policyMiddleware(policy);
const next = async (): Promise<ReturnType<typeof ok>> => ok('done');
const toolCall: ToolCall = {
  tool: target,
  args: {},
  ctx: createToolContext({ principal: view.principal, session: { id: 'bench' } }),
};
const handle = gate.handle as NonNullable<typeof gate.handle>;
const gateStats = await timeAsync(() => handle(toolCall, next), { rounds: 60, batch: 2000 });
const directStats = await timeAsync(() => next(), { rounds: 60, batch: 2000 });
const cpuPerCallUs = async (fn: () => Promise<unknown>, calls: number): Promise<number> => {
  const start = process.cpuUsage();
  for (let index = 0; index < calls; index++) await fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / calls;
};
const gateCpuUs = await cpuPerCallUs(() => handle(toolCall, next), 100_000);
const directCpuUs = await cpuPerCallUs(() => next(), 100_000);
console.log(`gate cpu ${gateCpuUs.toFixed(3)} us per call, direct next() cpu ${directCpuUs.toFixed(3)} us`);
console.log(
  `gate median ${gateStats.medianUs.toFixed(3)} us, direct next() ${directStats.medianUs.toFixed(3)} us`,
);

// The gate for a shell command (parse + rules), against the parse alone.
const parser = await loadShellParser();
const shell: RegisteredTool = {
  name: 'bash',
  localName: 'bash',
  spec: {
    name: 'bash',
    description: 'shell',
    inputSchema: { type: 'object' },
    sideEffect: 'spawns',
    commandArgument: 'command',
  },
  provider: { namespace: 'builtin', kind: 'builtin' },
};
const shellPolicy = createPolicy({ commands: { allow: ['git *', 'npm *', 'grep *', 'head *'] } });
const shellCall: ToolCall = {
  tool: shell,
  args: { command: 'git status && npm test 2>&1 | grep -v warn | head -50' },
  ctx: createToolContext({ session: { id: 'bench-shell' } }),
};
const shellGate = policyMiddleware(shellPolicy).handle as NonNullable<typeof gate.handle>;
const shellStats = await timeAsync(() => shellGate(shellCall, next), { rounds: 30, batch: 200 });
const parseStats = await timeAsync(async () => parser.parse(shellCall.args.command as string)?.delete(), {
  rounds: 30,
  batch: 200,
});
console.log(
  `shell gate median ${shellStats.medianUs.toFixed(1)} us, tree-sitter parse alone ${parseStats.medianUs.toFixed(1)} us`,
);

result('policy/filter-10k-tools-200-rules', filterStats.medianUs / 1000, 'ms', {
  baseline: 'hand-written-rule-loop',
  ratio: filterStats.medianUs / naiveStats.medianUs,
});
result('policy/filter-10k-known-tools-new-array', warmStats.medianUs / 1000, 'ms', {
  baseline: 'array-filter-set-lookup',
  ratio: warmStats.medianUs / baselineStats.medianUs,
});
result('policy/filter-10k-tools-200-rules-cpu', cpuPerRoundMs.get('filter') ?? Number.NaN, 'ms', {
  baseline: 'hand-written-rule-loop-cpu',
  ratio: (cpuPerRoundMs.get('filter') ?? Number.NaN) / (cpuPerRoundMs.get('naive') ?? Number.NaN),
});
result('policy/gate-per-call-cpu', gateCpuUs, 'us', {
  baseline: 'direct-next-call-cpu',
  ratio: gateCpuUs / directCpuUs,
});
result('policy/gate-per-call', gateStats.medianUs, 'us', {
  baseline: 'direct-next-call',
  ratio: gateStats.medianUs / directStats.medianUs,
});
result('policy/shell-gate-per-call', shellStats.medianUs, 'us', {
  baseline: 'tree-sitter-parse',
  ratio: shellStats.medianUs / parseStats.medianUs,
});
