// The tools every adapter example hands to its model: one local tool, through the orchestrator.
import { createLocalProvider, defineTool, ok } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '@toolplane/orchestrator';
import { z } from 'zod';

const forecast = defineTool({
  name: 'forecast',
  description: 'Weather forecast for a city.',
  input: z.object({ city: z.string().min(1), days: z.number().int().min(1).max(7).optional() }),
  sideEffect: 'read',
  execute: ({ city, days }) => ok(`${city}: sunny for ${days ?? 1} day(s)`),
});

/** An orchestrator with the example's tools, started. */
export async function exampleOrchestrator(): Promise<ToolsOrchestrator> {
  const orchestrator = createOrchestrator({ timeoutMs: 30_000 });
  orchestrator.register(createLocalProvider({ namespace: 'weather', tools: [forecast] }));
  await orchestrator.warmup();
  return orchestrator;
}
