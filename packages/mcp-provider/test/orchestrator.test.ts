import { createOrchestrator } from '@toolplane/orchestrator';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpProvider } from '../src/index.js';
import { fixtureServer, pidsWithTag, tempDirectory, uniqueTag, waitFor } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

describe('through the orchestrator', () => {
  it('warms up many servers, reports the broken one, serves the rest and follows list_changed', async () => {
    const tag = uniqueTag();
    const orchestrator = createOrchestrator({ warmupConcurrency: 2 });
    for (const name of ['alpha', 'beta', 'gamma']) {
      orchestrator.register(
        createMcpProvider(name, fixtureServer([`--tag=${tag}`]), { runDirectory: run.path }),
      );
    }
    orchestrator.register(
      createMcpProvider(
        'broken',
        { type: 'stdio', command: '/nonexistent/server' },
        { runDirectory: run.path },
      ),
    );
    try {
      const report = await orchestrator.warmup();
      const byName = Object.fromEntries(report.map((entry) => [entry.provider, entry]));
      expect(byName.alpha?.ok && byName.beta?.ok && byName.gamma?.ok).toBe(true);
      expect(byName.broken?.ok).toBe(false);
      expect(byName.broken?.error).toMatch(/"broken".*ENOENT/);
      const names = orchestrator.listTools().map((spec) => spec.name);
      expect(names).toEqual(expect.arrayContaining(['alpha__echo', 'beta__read_resource', 'gamma__add']));
      const result = await orchestrator.call('beta__echo', { message: 'via orchestrator' });
      expect(result.ok && result.content[0]).toEqual({ type: 'text', text: 'via orchestrator' });
      await orchestrator.call('gamma__add_tool', {});
      expect(
        await waitFor(
          () => orchestrator.listTools().some((spec) => spec.name === 'gamma__late_tool'),
          15_000,
        ),
      ).toBe(true);
    } finally {
      await orchestrator.close();
    }
    expect(await waitFor(() => pidsWithTag(tag).length === 0)).toBe(true);
  });
});
