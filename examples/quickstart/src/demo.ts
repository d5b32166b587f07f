// The Quick start demo: registers providers, makes real calls through the orchestrator and
// prints what a model would get back.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBuiltinProvider } from '@toolplane/builtin-fs-shell';
import { createLocalProvider, defineTool, ok } from '@toolplane/core';
import { createOrchestrator } from '@toolplane/orchestrator';
import { createPolicy, policyMiddleware } from '@toolplane/policy';
import { createScrubber, scrubberMiddleware } from '@toolplane/scrubber';
import { z } from 'zod';

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  input: z.object({ a: z.number(), b: z.number() }),
  output: z.object({ sum: z.number() }),
  sideEffect: 'none',
  execute: ({ a, b }) => ok(`${a} + ${b} = ${a + b}`, { sum: a + b }),
});

const report = defineTool({
  name: 'report',
  description: 'Produces a long report (to show the size cap and tool_output).',
  input: z.object({ lines: z.number().int().min(1).max(100_000) }),
  sideEffect: 'read',
  execute: ({ lines }) =>
    Array.from({ length: lines }, (_, i) => `row ${i + 1}: ${i % 500 === 0 ? 'checkpoint' : 'ok'}`).join(
      '\n',
    ),
});

const wait = defineTool({
  name: 'wait',
  description: 'Waits, honouring cancellation.',
  input: z.object({ ms: z.number().int().min(0) }),
  sideEffect: 'none',
  execute: ({ ms }, ctx) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve(`waited ${ms} ms`), ms);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(ctx.signal.reason);
      });
    }),
});

// a throwaway workspace for the built-in file and shell tools, with a file that leaks a
// credential (a fake made now, never stored anywhere)
const workspace = await mkdtemp(join(tmpdir(), 'toolplane-demo-'));
const fakeToken = `ghp_${randomBytes(27)
  .toString('base64')
  .replace(/[^A-Za-z0-9]/g, 'x')
  .slice(0, 36)}`;
await writeFile(join(workspace, 'settings.env'), `GITHUB_TOKEN=${fakeToken}\nREGION=eu-west-1\n`);
await writeFile(join(workspace, 'notes.md'), '# Notes\nTODO: ship the demo\n');

const orchestrator = createOrchestrator({ timeoutMs: 15_000, output: { maxBytes: 2_048 } });
orchestrator.register(createLocalProvider({ namespace: 'math', tools: [add] }));
orchestrator.register(createLocalProvider({ namespace: 'demo', tools: [report, wait] }), { queue: 'demo' });
orchestrator.register(createBuiltinProvider({ workspace }));
orchestrator.use(
  policyMiddleware(
    createPolicy({
      profile: 'coding',
      alsoAllow: ['math__*', 'demo__*'],
      commands: { allow: ['ls *', 'cat *'] },
    }),
  ),
);
orchestrator.use(scrubberMiddleware(createScrubber()));
orchestrator.on('tool_finished', (event) => {
  const status = event.ok ? 'ok' : event.error?.code;
  console.log(`  · ${event.tool} ${status} in ${event.meta.latencyMs} ms (${event.meta.bytesOut} bytes out)`);
});

const reports = await orchestrator.warmup();
console.log(
  `providers: ${reports.map((r) => `${r.provider} (${r.tools} tools${r.ok ? '' : `, failed: ${r.error}`})`).join(', ')}`,
);
console.log(
  `tools: ${orchestrator
    .listTools()
    .map((t) => t.name)
    .join(', ')}\n`,
);

async function show(title: string, name: string, args: unknown, options = {}): Promise<void> {
  console.log(`> ${title}: ${name} ${JSON.stringify(args)}`);
  const result = await orchestrator.call(name, args, { session: { id: 'demo' }, ...options });
  const text = (result.content ?? [])
    .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
    .join('\n');
  const lines = text.split('\n');
  const shown = lines.length > 8 ? [...lines.slice(0, 4), '…', lines.at(-1) ?? ''] : lines;
  if (result.ok) console.log(shown.join('\n'));
  else console.log(`error ${result.error.code}: ${result.error.message}`);
  console.log('');
}

await show('a plain call', 'math__add', { a: 2, b: 40 });
await show('a name the way models write it', 'math.add', { a: 1, b: 1 });
await show('bad arguments', 'math__add', { a: 'two' });
await show('an unknown tool', 'math__ad', {});
await show('a call over its deadline', 'demo__wait', { ms: 5_000 }, { timeoutMs: 100 });
await show('a large output (capped, stored, handle returned)', 'demo__report', { lines: 5_000 });
const handle = orchestrator.accounting().records.at(-1)?.truncated?.handle;
await show('reading the stored output back', 'tool_output', {
  handle,
  mode: 'grep',
  pattern: 'checkpoint',
  limit: 3,
});
await show('a built-in tool: read (the token is scrubbed)', 'read', { path: 'settings.env' });
await show('a built-in tool: grep', 'grep', { pattern: 'TODO', output_mode: 'content' });
await show('a shell command the policy allows', 'bash', { command: 'ls -1' });
await show('a shell command hidden behind an allowed one', 'bash', { command: 'ls; rm -rf ~' });
await show('a risky call with nobody to approve it', 'bash', { command: 'curl -s http://127.0.0.1:9/' });
await show('a path outside the workspace', 'read', { path: '../../etc/passwd' });
await show('several calls at once', 'batch', {
  calls: [
    { tool: 'math__add', args: { a: 1, b: 2 } },
    { tool: 'demo__wait', args: { ms: 10 } },
  ],
});

const { totals } = orchestrator.accounting();
console.log('accounting per tool:');
for (const [tool, t] of Object.entries(totals)) {
  console.log(`  ${tool}: ${t.calls} calls, ${t.errors} errors, ${t.latencyMs} ms total`);
}
await orchestrator.close();
await rm(workspace, { recursive: true, force: true });
