// Bench harness shared by every package's benchmarks (private, run with tsx).
import { performance } from 'node:perf_hooks';

/** Summary of a set of samples, in microseconds. */
export interface Stats {
  readonly samples: number;
  readonly medianUs: number;
  readonly p99Us: number;
  readonly meanUs: number;
  readonly opsPerSecond: number;
}

/** Percentile (0..100) of a sorted array. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

/** Median of unsorted samples (the lower one of an even count). */
export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/** Summarises per-operation samples given in microseconds. */
export function summarize(samplesUs: number[]): Stats {
  const sorted = [...samplesUs].sort((a, b) => a - b);
  const sum = sorted.reduce((a, b) => a + b, 0);
  const mean = sum / Math.max(1, sorted.length);
  return {
    samples: sorted.length,
    medianUs: percentile(sorted, 50),
    p99Us: percentile(sorted, 99),
    meanUs: mean,
    opsPerSecond: 1e6 / mean,
  };
}

/**
 * Times `fn` in rounds of `batch` calls and returns per-call figures. Rounds of many calls
 * keep timer resolution out of sub-microsecond measurements; the median round is robust to
 * the noise of a shared machine.
 */
export async function timeAsync(
  fn: () => Promise<unknown>,
  options: { rounds?: number; batch?: number; warmupRounds?: number } = {},
): Promise<Stats> {
  const rounds = options.rounds ?? 60;
  const batch = options.batch ?? 500;
  const warmup = options.warmupRounds ?? 10;
  const samples: number[] = [];
  for (let round = 0; round < warmup + rounds; round++) {
    const start = performance.now();
    for (let i = 0; i < batch; i++) await fn();
    const perCallUs = ((performance.now() - start) * 1000) / batch;
    if (round >= warmup) samples.push(perCallUs);
  }
  return summarize(samples);
}

/** Times single operations (for slower things such as network round trips). */
export async function timeEach(fn: () => Promise<unknown>, count: number, warmup = 5): Promise<Stats> {
  const samples: number[] = [];
  for (let i = 0; i < warmup + count; i++) {
    const start = performance.now();
    await fn();
    if (i >= warmup) samples.push((performance.now() - start) * 1000);
  }
  return summarize(samples);
}

/** Prints one `RESULT` line in the format of ARCHITECTURE.md. */
export function result(
  name: string,
  value: number,
  unit: string,
  versus?: { baseline: string; ratio: number },
): void {
  const formatted = value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
  const tail = versus ? ` vs ${versus.baseline} ${versus.ratio.toFixed(2)}x` : '';
  console.log(`RESULT ${name} ${formatted} ${unit}${tail}`);
}

/**
 * Times several functions in alternating rounds, so a load that comes and goes on a shared
 * machine hits all of them alike. Returns per-call stats by name.
 */
export async function timeInterleaved(
  variants: Readonly<Record<string, { fn: () => Promise<unknown>; batch: number }>>,
  options: { rounds?: number; warmupRounds?: number } = {},
): Promise<Record<string, Stats>> {
  const rounds = options.rounds ?? 40;
  const warmup = options.warmupRounds ?? 5;
  const samples: Record<string, number[]> = {};
  const names = Object.keys(variants);
  for (const name of names) samples[name] = [];
  for (let round = 0; round < warmup + rounds; round++) {
    for (const name of names) {
      const { fn, batch } = variants[name] as { fn: () => Promise<unknown>; batch: number };
      const start = performance.now();
      for (let i = 0; i < batch; i++) await fn();
      if (round >= warmup) (samples[name] as number[]).push(((performance.now() - start) * 1000) / batch);
    }
  }
  const out: Record<string, Stats> = {};
  for (const name of names) out[name] = summarize(samples[name] as number[]);
  return out;
}
