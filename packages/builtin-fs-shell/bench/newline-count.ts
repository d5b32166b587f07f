// The newline kernel from a core's cache: the WebAssembly SIMD count against the JS fallback
// (`indexOf` loop) counting the same 256 KiB buffer, alternated, in one run.
import { performance } from 'node:perf_hooks';
import { median, result } from '@toolplane/bench';
import { type NewlineScanner, createNewlineScanner } from '../src/files/newline-scanner.js';

const BUFFER_BYTES = 256 * 1024;
const PASSES = 4096; // 1 GiB a sample

function filled(scanner: NewlineScanner): NewlineScanner {
  for (let i = 0; i < BUFFER_BYTES; i++) scanner.buffer[i] = i % 97 === 96 ? 10 : 97;
  return scanner;
}

/** Prints the SIMD kernel's GB/s and its ratio to the JS fallback. */
export function benchNewlineCount(samples: number): void {
  const simd = filled(createNewlineScanner({ capacity: BUFFER_BYTES }));
  const fallback = filled(createNewlineScanner({ capacity: BUFFER_BYTES, simd: false }));
  if (!simd.simd) throw new Error('no WebAssembly SIMD on this runtime');
  if (simd.count(0, BUFFER_BYTES) !== fallback.count(0, BUFFER_BYTES)) throw new Error('the counts differ');
  const rate = (scanner: NewlineScanner, passes: number): number => {
    const started = performance.now();
    for (let i = 0; i < passes; i++) scanner.count(0, BUFFER_BYTES);
    return (passes * BUFFER_BYTES) / 1e9 / ((performance.now() - started) / 1000);
  };
  rate(simd, 500);
  rate(fallback, 50);
  const simdRates: number[] = [];
  const fallbackRates: number[] = [];
  for (let i = 0; i < samples; i++) {
    simdRates.push(rate(simd, PASSES));
    fallbackRates.push(rate(fallback, PASSES / 16));
  }
  const simdRate = median(simdRates);
  result('builtin-fs-shell/newline-count-simd', simdRate, 'GB/s', {
    baseline: 'js-indexof',
    ratio: simdRate / median(fallbackRates),
  });
}
