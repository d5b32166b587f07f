import { describe, expect, it } from 'vitest';
import { createMemory, instantiateKernel, newlineModule } from '../../src/files/newline-wasm.js';

describe('the WebAssembly newline kernel', () => {
  it('validates on this runtime (Node >= 20 has fixed-width SIMD)', () => {
    expect(newlineModule()).not.toBeNull();
  });

  it('counts and locates exactly like a byte loop, at every alignment and length', () => {
    const module = newlineModule();
    if (!module) throw new Error('no WebAssembly SIMD on this runtime');
    const memory = createMemory(64 * 1024);
    const kernel = instantiateKernel(module, memory);
    const bytes = new Uint8Array(memory.buffer);
    let state = 7;
    const next = (): number => {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      return state / 2 ** 32;
    };
    // Lengths around the 16-byte vector, the 64-byte step, the 4032-byte run of 64-byte steps
    // and the 4080-byte run of 16-byte ones (density 1 fills every lane to its limit).
    const lengths = [
      0, 1, 15, 16, 17, 31, 33, 63, 64, 65, 127, 129, 4031, 4032, 4033, 4079, 4080, 4081, 8064, 8161, 20_000,
    ];
    for (const density of [0, 0.02, 0.5, 1]) {
      for (const length of lengths) {
        for (const start of [0, 1, 7, 16, 29]) {
          for (let i = 0; i < length; i++) bytes[start + i] = next() < density ? 10 : 97 + (i % 26);
          const positions: number[] = [];
          for (let i = 0; i < length; i++) if (bytes[start + i] === 10) positions.push(i);
          expect(kernel.count(start, length)).toBe(positions.length);
          for (const wanted of [1, 2, positions.length, positions.length + 1]) {
            if (wanted < 1) continue;
            expect(kernel.locate(start, length, wanted)).toBe(positions[wanted - 1] ?? -1);
          }
        }
      }
    }
  });
});
