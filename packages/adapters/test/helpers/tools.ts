import { createLocalProvider, defineTool, fail, ok } from '@toolplane/core';
import { createOrchestrator } from '@toolplane/orchestrator';
import type { ToolsOrchestrator } from '@toolplane/orchestrator';
import { z } from 'zod';

/** A 1x1 PNG, base64. */
export const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** What the tools were called with, in order. */
export type CallLog = { tool: string; args: unknown; aborted?: boolean }[];

/**
 * An orchestrator with three real tools: a forecast with optional arguments, an image, and a
 * tool that always fails; plus a slow tool that waits for its signal.
 */
export async function createTestOrchestrator(): Promise<{ orchestrator: ToolsOrchestrator; calls: CallLog }> {
  const calls: CallLog = [];
  const forecast = defineTool({
    name: 'forecast',
    description: 'Weather forecast for a city.',
    input: z.object({
      city: z.string().min(1),
      days: z.number().int().min(1).max(7).optional(),
      units: z.enum(['metric', 'imperial']).optional(),
    }),
    sideEffect: 'read',
    execute: (args) => {
      calls.push({ tool: 'forecast', args });
      return ok(`${args.city}: sunny for ${args.days ?? 1} day(s), ${args.units ?? 'metric'}`);
    },
  });
  const chart = defineTool({
    name: 'chart',
    description: 'Draws a chart as a PNG image.',
    input: z.object({ title: z.string() }),
    sideEffect: 'none',
    execute: (args) => {
      calls.push({ tool: 'chart', args });
      return ok([
        { type: 'text', text: `chart ${args.title}` },
        { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' },
      ]);
    },
  });
  const broken = defineTool({
    name: 'broken',
    description: 'Always fails.',
    input: z.object({}),
    sideEffect: 'none',
    execute: () => {
      calls.push({ tool: 'broken', args: {} });
      return fail('EXECUTION_FAILED', 'the disk is full: free some space and retry');
    },
  });
  const slow = defineTool({
    name: 'slow',
    description: 'Waits until cancelled.',
    input: z.object({}),
    sideEffect: 'none',
    execute: (_args, ctx) =>
      new Promise((resolve) => {
        const done = () => {
          calls.push({ tool: 'slow', args: {}, aborted: ctx.signal.aborted });
          resolve(fail('CANCELLED', 'stopped'));
        };
        if (ctx.signal.aborted) done();
        else ctx.signal.addEventListener('abort', done, { once: true });
      }),
  });
  const orchestrator = createOrchestrator({ timeoutMs: 60_000 });
  orchestrator.register(createLocalProvider({ namespace: 'weather', tools: [forecast] }));
  orchestrator.register(createLocalProvider({ namespace: 'media', tools: [chart, broken, slow] }));
  await orchestrator.warmup();
  return { orchestrator, calls };
}
