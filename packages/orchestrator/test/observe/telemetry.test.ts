import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, expect, it } from 'vitest';
import { fail, ok } from '@toolplane/core';
import { createOrchestrator } from '../../src/index.js';
import { testProvider } from '../helpers.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
trace.setGlobalTracerProvider(provider);
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
});

it('records an execute_tool span per call with GenAI attributes when an SDK is installed', async () => {
  const orchestrator = createOrchestrator();
  orchestrator.register(
    testProvider('svc', { good: { run: () => ok('fine') }, bad: { run: () => fail('DENIED', 'no') } }),
  );
  await orchestrator.call('svc__good', {}, { callId: 'call-1' });
  await orchestrator.call('svc__bad', {}, { callId: 'call-2' });
  await orchestrator.close();
  const spans = exporter.getFinishedSpans();
  expect(spans.map((s) => s.name)).toEqual(['execute_tool svc__good', 'execute_tool svc__bad']);
  expect(spans[0]?.attributes).toMatchObject({
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': 'svc__good',
    'gen_ai.tool.call.id': 'call-1',
  });
  expect(spans[1]?.attributes['error.type']).toBe('DENIED');
  expect(spans[1]?.status.code).toBe(2);
});

it('makes no span while no SDK is registered, and traces again once one is', async () => {
  const orchestrator = createOrchestrator();
  orchestrator.register(testProvider('svc', { good: { run: () => ok('fine') } }));
  exporter.reset();
  trace.disable();
  expect((await orchestrator.call('svc__good', {}, { callId: 'untraced' })).ok).toBe(true);
  expect(exporter.getFinishedSpans()).toEqual([]);
  trace.setGlobalTracerProvider(provider);
  await orchestrator.call('svc__good', {}, { callId: 'traced' });
  expect(exporter.getFinishedSpans().map((span) => span.attributes['gen_ai.tool.call.id'])).toEqual([
    'traced',
  ]);
  await orchestrator.close();
});
