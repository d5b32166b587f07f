// A WebAssembly SIMD module that counts and locates "\n" bytes, emitted here byte by byte
// (621 bytes, no toolchain). Each function is written out below as its text form first.

/** Unsigned LEB128, as the binary format encodes sizes, indices and SIMD opcodes. */
function unsigned(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest !== 0);
  return bytes;
}

/** A vector: its length, then its items. */
function vector(items: readonly number[][]): number[] {
  return [...unsigned(items.length), ...items.flat()];
}

/** A section: its id, its byte size, its content. */
function section(id: number, content: readonly number[]): number[] {
  return [id, ...unsigned(content.length), ...content];
}

/** A UTF-8 name. */
function name(text: string): number[] {
  const bytes = [...Buffer.from(text, 'utf8')];
  return [...unsigned(bytes.length), ...bytes];
}

// Value types and the opcodes used below (WebAssembly core 2.0, fixed-width SIMD).
const I32 = 0x7f;
const V128 = 0x7b;
const EMPTY = 0x40;
const BLOCK = 0x02;
const LOOP = 0x03;
const IF = 0x04;
const END = 0x0b;
const BR = 0x0c;
const BR_IF = 0x0d;
const RETURN = 0x0f;
const GET = 0x20;
const SET = 0x21;
const TEE = 0x22;
const LOAD8_U = [0x2d, 0x00, 0x00];
const CONST = 0x41;
const EQ = 0x46;
const LT_U = 0x49;
const GE_U = 0x4f;
const CTZ = 0x68;
const POPCNT = 0x69;
const ADD = 0x6a;
const SUB = 0x6b;
const AND = 0x71;
const SELECT = 0x1b;
const simd = (opcode: number): number[] => [0xfd, ...unsigned(opcode)];
const V128_LOAD = [...simd(0x00), 0x00, 0x00];
/** `v128.load` at a constant offset from the address on the stack. */
const v128LoadAt = (offset: number): number[] => [...simd(0x00), 0x00, ...unsigned(offset)];
const I8X16_SPLAT = simd(0x0f);
const I32X4_EXTRACT_LANE = simd(0x1b);
const I8X16_EQ = simd(0x23);
const I8X16_BITMASK = simd(0x64);
const I8X16_ADD = simd(0x6e);
const I8X16_SUB = simd(0x71);
const I16X8_EXTADD_PAIRWISE_I8X16_U = simd(0x7d);
const I32X4_EXTADD_PAIRWISE_I16X8_U = simd(0x7f);
const V128_CONST_ZERO = [...simd(0x0c), ...new Array<number>(16).fill(0)];
const NEWLINES = [CONST, 10, ...I8X16_SPLAT];
const i32 = (value: number): number[] => {
  // Signed LEB128 of a small constant (the values used here fit).
  const bytes: number[] = [];
  let rest = value;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    if ((rest === 0 && (byte & 0x40) === 0) || (rest === -1 && (byte & 0x40) !== 0)) {
      bytes.push(byte);
      return [CONST, ...bytes];
    }
    bytes.push(byte | 0x80);
  }
};

/*
 * (func $count (param $at i32) (param $length i32) (result i32)
 *   (local $end i32) (local $vectorEnd i32) (local $runEnd i32) (local $total i32) (local $sums v128)
 *   (local $wideEnd i32)
 *   end = at + length; vectorEnd = at + (length & -16); wideEnd = at + (length & -64)
 *   while at < wideEnd:                         ;; runs of at most 63 steps of 64 bytes
 *     runEnd = min(at + 63*64, wideEnd); sums = 0
 *     while at < runEnd:                        ;; the four compares are added pairwise first
 *       sums -= (load(at) == splat(10)) + (load(at+16) == ...) + (load(at+32) == ...) + (load(at+48) == ...)
 *       at += 64
 *     total += sum of the 16 lanes
 *   while at < vectorEnd:                       ;; what is left, 16 bytes a step, in runs of at most 255
 *                                               ;; (a u8 lane cannot overflow)
 *     runEnd = min(at + 255*16, vectorEnd); sums = 0
 *     while at < runEnd: sums -= (load(at) == splat(10)); at += 16   ;; a match lane is -1
 *     total += sum of the 16 lanes (two pairwise widening adds, then four lanes)
 *   while at < end: total += (load8_u(at) == 10); at += 1
 *   total)
 */
const AT = 0;
const LENGTH = 1;
const END_LOCAL = 2;
const VECTOR_END = 3;
const RUN_END = 4;
const TOTAL = 5;
const SUMS = 6;
const WIDE_END = 7;
/** `sums += (the v128 at at+offset == "\n")`: pushes one 0/-1 lane vector. */
const matchesAt = (offset: number): number[] => [GET, AT, ...v128LoadAt(offset), ...NEWLINES, ...I8X16_EQ];
/** Adds the 16 u8 lanes of `sums` to `total`. */
const foldSums: number[] = [
  ...[GET, SUMS, ...I16X8_EXTADD_PAIRWISE_I8X16_U, ...I32X4_EXTADD_PAIRWISE_I16X8_U, TEE, SUMS],
  ...[...I32X4_EXTRACT_LANE, 0, GET, SUMS, ...I32X4_EXTRACT_LANE, 1, ADD],
  ...[GET, SUMS, ...I32X4_EXTRACT_LANE, 2, ADD, GET, SUMS, ...I32X4_EXTRACT_LANE, 3, ADD],
  ...[GET, TOTAL, ADD, SET, TOTAL],
];
const countBody: number[] = [
  ...[GET, AT, GET, LENGTH, ADD, SET, END_LOCAL],
  ...[GET, AT, GET, LENGTH, ...i32(-16), AND, ADD, SET, VECTOR_END],
  ...[GET, AT, GET, LENGTH, ...i32(-64), AND, ADD, SET, WIDE_END],
  // 64 bytes a step, four compares summed pairwise: runs of 63 steps (a lane gains at most 4 a step).
  ...[BLOCK, EMPTY, LOOP, EMPTY],
  ...[GET, AT, GET, WIDE_END, GE_U, BR_IF, 1],
  ...[GET, AT, ...i32(63 * 64), ADD, SET, RUN_END],
  ...[GET, RUN_END, GET, WIDE_END, GET, RUN_END, GET, WIDE_END, LT_U, SELECT, SET, RUN_END],
  ...[...V128_CONST_ZERO, SET, SUMS],
  ...[BLOCK, EMPTY, LOOP, EMPTY],
  ...[GET, AT, GET, RUN_END, GE_U, BR_IF, 1],
  ...[GET, SUMS, ...matchesAt(0), ...matchesAt(16), ...I8X16_ADD, ...matchesAt(32), ...matchesAt(48)],
  ...[...I8X16_ADD, ...I8X16_ADD, ...I8X16_SUB, SET, SUMS],
  ...[GET, AT, ...i32(64), ADD, SET, AT, BR, 0, END, END],
  ...foldSums,
  ...[BR, 0, END, END],
  ...[BLOCK, EMPTY, LOOP, EMPTY],
  ...[GET, AT, GET, VECTOR_END, GE_U, BR_IF, 1],
  // runEnd = min(at + 4080, vectorEnd)
  ...[GET, AT, ...i32(255 * 16), ADD, SET, RUN_END],
  ...[GET, RUN_END, GET, VECTOR_END, GET, RUN_END, GET, VECTOR_END, LT_U, SELECT, SET, RUN_END],
  ...[...V128_CONST_ZERO, SET, SUMS],
  ...[BLOCK, EMPTY, LOOP, EMPTY],
  ...[GET, AT, GET, RUN_END, GE_U, BR_IF, 1],
  ...[GET, SUMS, GET, AT, ...V128_LOAD, ...NEWLINES, ...I8X16_EQ, ...I8X16_SUB, SET, SUMS],
  ...[GET, AT, ...i32(16), ADD, SET, AT, BR, 0, END, END],
  ...foldSums,
  ...[BR, 0, END, END],
  ...[BLOCK, EMPTY, LOOP, EMPTY],
  ...[GET, AT, GET, END_LOCAL, GE_U, BR_IF, 1],
  ...[GET, TOTAL, GET, AT, ...LOAD8_U, CONST, 10, EQ, ADD, SET, TOTAL],
  ...[GET, AT, CONST, 1, ADD, SET, AT, BR, 0, END, END],
  ...[GET, TOTAL, END],
];

/*
 * (func $locate (param $at i32) (param $length i32) (param $wanted i32) (result i32)
 *   (local $end i32) (local $vectorEnd i32) (local $mask i32) (local $start i32)
 *   Returns the offset (from the first `at`) of the wanted-th "\n" (1-based), or -1.
 *   start = at; end = at + length; vectorEnd = at + (length & -16)
 *   while at < vectorEnd:
 *     mask = bitmask(load(at) == splat(10))
 *     if wanted <= popcnt(mask):
 *       loop: if wanted == 1: return at - start + ctz(mask)
 *             mask &= mask - 1; wanted -= 1
 *     wanted -= popcnt(mask); at += 16
 *   while at < end: if load8_u(at) == 10 { if wanted == 1 return at - start; wanted -= 1 }; at += 1
 *   -1)
 */
const WANTED = 2;
const L_END = 3;
const L_VECTOR_END = 4;
const MASK = 5;
const START = 6;
const locateBody: number[] = [
  ...[GET, AT, SET, START, GET, AT, GET, LENGTH, ADD, SET, L_END],
  ...[GET, AT, GET, LENGTH, ...i32(-16), AND, ADD, SET, L_VECTOR_END],
  ...[BLOCK, EMPTY, LOOP, EMPTY],
  ...[GET, AT, GET, L_VECTOR_END, GE_U, BR_IF, 1],
  ...[GET, AT, ...V128_LOAD, ...NEWLINES, ...I8X16_EQ, ...I8X16_BITMASK, TEE, MASK],
  ...[POPCNT, GET, WANTED, GE_U, IF, EMPTY],
  ...[LOOP, EMPTY],
  ...[GET, WANTED, CONST, 1, EQ, IF, EMPTY],
  ...[GET, AT, GET, START, SUB, GET, MASK, CTZ, ADD, RETURN, END],
  ...[GET, MASK, GET, MASK, CONST, 1, SUB, AND, SET, MASK],
  ...[GET, WANTED, CONST, 1, SUB, SET, WANTED, BR, 0, END],
  ...[END],
  ...[GET, WANTED, GET, MASK, POPCNT, SUB, SET, WANTED],
  ...[GET, AT, ...i32(16), ADD, SET, AT, BR, 0, END, END],
  ...[BLOCK, EMPTY, LOOP, EMPTY],
  ...[GET, AT, GET, L_END, GE_U, BR_IF, 1],
  ...[GET, AT, ...LOAD8_U, CONST, 10, EQ, IF, EMPTY],
  ...[GET, WANTED, CONST, 1, EQ, IF, EMPTY, GET, AT, GET, START, SUB, RETURN, END],
  ...[GET, WANTED, CONST, 1, SUB, SET, WANTED, END],
  ...[GET, AT, CONST, 1, ADD, SET, AT, BR, 0, END, END],
  ...[...i32(-1), END],
];

function moduleBytes(): Uint8Array {
  const countType = [0x60, ...vector([[I32], [I32]]), ...vector([[I32]])];
  const locateType = [0x60, ...vector([[I32], [I32], [I32]]), ...vector([[I32]])];
  const countCode = [
    ...vector([
      [4, I32],
      [1, V128],
      [1, I32],
    ]),
    ...countBody,
  ];
  const locateCode = [...vector([[4, I32]]), ...locateBody];
  const bytes = [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector([countType, locateType])),
    // The memory is imported, so the caller sizes it to its chunk.
    ...section(2, vector([[...name('env'), ...name('memory'), 0x02, 0x00, 0x01]])),
    ...section(3, vector([[0], [1]])),
    ...section(
      7,
      vector([
        [...name('count'), 0x00, 0],
        [...name('locate'), 0x00, 1],
      ]),
    ),
    ...section(
      10,
      vector([
        [...unsigned(countCode.length), ...countCode],
        [...unsigned(locateCode.length), ...locateCode],
      ]),
    ),
  ];
  return Uint8Array.from(bytes);
}

/** The newline functions of one module instance. */
export interface NewlineKernel {
  /** Number of "\n" bytes in `length` bytes of the memory at `at`. */
  count(at: number, length: number): number;
  /** Offset from `at` of the `wanted`-th "\n" (1-based) in `length` bytes, or -1 when there are fewer. */
  locate(at: number, length: number, wanted: number): number;
}

/** A compiled module (opaque). */
export type WasmModule = object;

/** A linear memory. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

// The few members of the WebAssembly global used here: the repository's lib is ES-only and
// @types/node 20 does not declare them.
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  readonly Module: new (bytes: Uint8Array) => WasmModule;
  readonly Instance: new (module: WasmModule, imports: object) => { readonly exports: object };
  readonly Memory: new (descriptor: { initial: number }) => WasmMemory;
}

const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

let compiled: WasmModule | null | undefined;

/** The compiled module, or null when this runtime has no WebAssembly SIMD. */
export function newlineModule(): WasmModule | null {
  if (compiled !== undefined) return compiled;
  const bytes = moduleBytes();
  compiled = wasm?.validate(bytes) ? new wasm.Module(bytes) : null;
  return compiled;
}

/** A memory of `bytes` (rounded up to whole 64 KiB pages). */
export function createMemory(bytes: number): WasmMemory {
  if (!wasm) throw new Error('WebAssembly is not available');
  return new wasm.Memory({ initial: Math.ceil(bytes / 65_536) });
}

/** An instance of the module over `memory`. */
export function instantiateKernel(module: WasmModule, memory: WasmMemory): NewlineKernel {
  if (!wasm) throw new Error('WebAssembly is not available');
  const instance = new wasm.Instance(module, { env: { memory } });
  return instance.exports as NewlineKernel;
}
