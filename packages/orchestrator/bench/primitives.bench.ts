// The costs behind docs/decisions/0001-call-pipeline.md: what a per-call AbortSignal, a timer,
// and a context object with a getter would cost, against what the pipeline does instead.
// Run: pnpm --filter @toolplane/orchestrator bench
import { performance } from 'node:perf_hooks';
import { result } from '@toolplane/bench';

const N = 200_000;
const sink: unknown[] = new Array(64);

function perCallUs(make: (i: number) => unknown): number {
  for (let i = 0; i < N; i++) sink[i & 63] = make(i); // warm up
  const runs: number[] = [];
  for (let run = 0; run < 5; run++) {
    const start = performance.now();
    for (let i = 0; i < N; i++) sink[i & 63] = make(i);
    runs.push(((performance.now() - start) * 1000) / N);
  }
  runs.sort((a, b) => a - b);
  return runs[2] as number;
}

const prototype = Object.create(Object.prototype, {
  signal: {
    get(this: { lazy: { signal?: AbortSignal } }) {
      return this.lazy.signal;
    },
  },
}) as object;

const signal = perCallUs(() => new AbortController().signal);
const timer = perCallUs(() => {
  const handle = setTimeout(() => {}, 60_000);
  clearTimeout(handle);
  return handle;
});
const getterLiteral = perCallUs((i) => {
  const lazy = { i };
  return {
    callId: i,
    get signal() {
      return lazy;
    },
    session: lazy,
  };
});
const prototypeObject = perCallUs((i) => {
  const ctx = Object.create(prototype) as { callId: number; lazy: unknown; session: unknown };
  ctx.callId = i;
  ctx.lazy = { i };
  ctx.session = ctx.lazy;
  return ctx;
});

console.log(`AbortController#signal   ${signal.toFixed(3)} us`);
console.log(`setTimeout+clearTimeout  ${timer.toFixed(3)} us`);
console.log(`literal with a getter    ${getterLiteral.toFixed(3)} us`);
console.log(`Object.create(prototype) ${prototypeObject.toFixed(3)} us`);
result('orchestrator/abort-signal-per-call', signal, 'us');
result('orchestrator/timer-per-call', timer, 'us');
result('orchestrator/context-getter-literal', getterLiteral, 'us', {
  baseline: 'prototype-context',
  ratio: getterLiteral / prototypeObject,
});
