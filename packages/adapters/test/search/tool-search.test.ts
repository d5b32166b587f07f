import { type Middleware, createLocalProvider, defineTool, ok } from '@toolplane/core';
import { createOrchestrator } from '@toolplane/orchestrator';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type FoundTool,
  TOOL_SEARCH_NAME,
  createToolSearchProvider,
  foundToolNames,
} from '../../src/index.js';

function tool(name: string, description: string) {
  return defineTool({
    name,
    description,
    input: z.object({ id: z.string() }),
    sideEffect: 'read',
    execute: () => ok(name),
  });
}

// what a policy does: the admin tools only for admins
const adminsOnly: Middleware = {
  name: 'admins-only',
  phase: 'gate',
  filterTools: (tools, view) =>
    view.principal.userId === 'admin' ? tools : tools.filter((t) => !t.name.startsWith('admin__')),
};

async function setUp() {
  const orchestrator = createOrchestrator();
  orchestrator.use(adminsOnly);
  orchestrator.register(
    createLocalProvider({
      namespace: 'admin',
      tools: [
        tool('delete_user', 'Deletes a user account for good.'),
        tool('reset_password', 'Resets the password of a user account.'),
      ],
    }),
  );
  orchestrator.register(
    createLocalProvider({
      namespace: 'crm',
      tools: [tool('find_user', 'Finds a user account by email.'), tool('list_deals', 'Lists open deals.')],
    }),
  );
  orchestrator.register(createToolSearchProvider({ orchestrator }));
  await orchestrator.warmup();
  return orchestrator;
}

describe('tool_search', () => {
  it('answers the full definitions of the best matches', async () => {
    const orchestrator = await setUp();
    const result = await orchestrator.call(
      TOOL_SEARCH_NAME,
      { query: 'user account' },
      { principal: { userId: 'admin' } },
    );
    expect(result.ok).toBe(true);
    const found = (result.ok ? (result.structured as { tools: FoundTool[] }).tools : []).map((t) => t.name);
    expect(found.sort()).toEqual(['admin__delete_user', 'admin__reset_password', 'crm__find_user']);
    const first = result.ok ? (result.structured as { tools: FoundTool[] }).tools[0] : undefined;
    expect(first?.inputSchema).toMatchObject({ type: 'object', properties: { id: { type: 'string' } } });
    expect(foundToolNames(result)).toHaveLength(3);
    await orchestrator.close();
  });

  it('searches only the tools the caller may see', async () => {
    const orchestrator = await setUp();
    const result = await orchestrator.call(
      TOOL_SEARCH_NAME,
      { query: 'delete user account password' },
      { principal: { userId: 'guest' } },
    );
    expect(foundToolNames(result)).toEqual(['crm__find_user']);
    await orchestrator.close();
  });

  it('never finds itself or the internal tools, and says so when nothing matches', async () => {
    const orchestrator = await setUp();
    const none = await orchestrator.call(TOOL_SEARCH_NAME, { query: 'batch tool output' });
    expect(foundToolNames(none)).toEqual([]);
    expect(none.ok && none.content[0]?.type === 'text' && none.content[0].text).toMatch(
      /^No tool matches .* among 2 tools/,
    );
    await orchestrator.close();
  });

  it('refuses an empty query with INVALID_ARGUMENTS', async () => {
    const orchestrator = await setUp();
    const result = await orchestrator.call(TOOL_SEARCH_NAME, { query: '' });
    expect(result.ok ? undefined : result.error.code).toBe('INVALID_ARGUMENTS');
    await orchestrator.close();
  });
});
