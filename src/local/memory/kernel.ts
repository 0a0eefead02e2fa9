// A WebAssembly SIMD kernel that scores every row of a block of float32 vectors against one query: dot products or
// squared Euclidean distances, 8 floats per step in two f32x4 accumulators. Hand-assembled here (≈200 bytes) because
// a JavaScript loop reaches about a quarter of the memory bandwidth on 768-dimensional rows, and a native library
// would add a per-platform binary to the package. Its sums are float32 and in another order than the exact scores
// (search/score.ts), so it only picks candidates: search/exact.ts re-scores them exactly and bounds the difference.
//
// One block is one WebAssembly.Memory: [query: dimPad floats][scores: capacity floats][rows: capacity × dimPad]. The
// memories are shared (SharedArrayBuffer) so that a worker thread can score part of them (kernel-worker.ts).

// The project's TypeScript libs carry no WebAssembly types; the few used here (Node has them at run time):
export declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number; shared?: boolean });
    readonly buffer: ArrayBuffer;
  }
  class Instance {
    constructor(module: Module, imports: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
}

const leb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
const vec = (items: number[][]): number[] => [...leb(items.length), ...items.flat()];
const section = (id: number, bytes: number[]): number[] => [id, ...leb(bytes.length), ...bytes];
const name = (s: string): number[] => vec([...Buffer.from(s)].map((b) => [b]));

const I32 = 0x7f;
const V128 = 0x7b;
const get = (i: number) => [0x20, i];
const set = (i: number) => [0x21, i];
const tee = (i: number) => [0x22, i];
/** i32.const of a non-negative n: its immediate is signed LEB128, which ends on a byte whose bit 6 is the sign. */
const i32 = (n: number): number[] => {
  const out = [0x41];
  for (;;) {
    const b = n & 0x7f;
    n >>>= 7;
    if (n === 0 && (b & 0x40) === 0) return [...out, b];
    out.push(b | 0x80);
  }
};
const simd = (op: number) => [0xfd, ...leb(op)];
const load = (offset: number) => [...simd(0x00), 4, ...leb(offset)];
const F32X4_ADD = simd(0xe4);
const F32X4_SUB = simd(0xe5);
const F32X4_MUL = simd(0xe6);
const ZERO = [...simd(0x0c), ...new Array<number>(16).fill(0)];
const lane = (i: number) => [...simd(0x1f), i];
const I16X8_EXTEND_LOW_I8X16_S = simd(0x87);
const I16X8_EXTEND_HIGH_I8X16_S = simd(0x88);
const I32X4_DOT_I16X8_S = simd(0xba);
const I32X4_ADD = simd(0xae);
const i32Lane = (i: number) => [...simd(0x1b), i];
const I32_ADD = 0x6a;
const I32_SHL = 0x74;
const I32_LT_U = 0x49;
const I32_EQZ = 0x45;
const F32_ADD = 0x92;

// (query, base, rows, rowBytes, out): params 0–4; locals r=5, i=6, p=7, acc0=8, acc1=9, sum=10, v=11. For each of
// `rows` rows from `base`: acc0 = acc1 = 0, i = 0, p = the start pointer; `step` until i reaches rowBytes; then
// out[r] = the sum of the lanes of acc0 + acc1.
interface RowLoop {
  /** The param p starts from each row: 1 (the row, float32) or 0 (the query, int8 kernel). */
  pointer: number;
  step: number[];
  pAdvance: number;
  iAdvance: number;
  lanes: { add: number[]; lane: (i: number) => number[]; scalarAdd: number; store: number[] };
}

function overRows({ pointer, step, pAdvance, iAdvance, lanes }: RowLoop): number[] {
  const body = [
    ...i32(0), ...set(5),
    0x02, 0x40, // block
    ...get(2), I32_EQZ, 0x0d, 0, // no rows: done
    0x03, 0x40, // loop over rows
    ...ZERO, ...set(8), ...ZERO, ...set(9), ...i32(0), ...set(6), ...get(pointer), ...set(7),
    0x03, 0x40, // loop over the row, a step at a time
    ...step,
    ...get(7), ...i32(pAdvance), I32_ADD, ...set(7),
    ...get(6), ...i32(iAdvance), I32_ADD, ...tee(6), ...get(3), I32_LT_U, 0x0d, 0,
    0x0b,
    ...get(4), ...get(5), ...i32(2), I32_SHL, I32_ADD, // &out[r]
    ...get(8), ...get(9), ...lanes.add, ...tee(10),
    ...lanes.lane(0), ...get(10), ...lanes.lane(1), lanes.scalarAdd, ...get(10), ...lanes.lane(2), lanes.scalarAdd, ...get(10), ...lanes.lane(3), lanes.scalarAdd,
    ...lanes.store,
    ...get(1), ...get(3), I32_ADD, ...set(1),
    ...get(5), ...i32(1), I32_ADD, ...tee(5), ...get(2), I32_LT_U, 0x0d, 0,
    0x0b,
    0x0b,
    0x0b,
  ];
  const fn = [...vec([[3, I32], [4, V128]]), ...body];
  return [...leb(fn.length), ...fn];
}

const FLOAT_LANES = { add: F32X4_ADD, lane, scalarAdd: F32_ADD, store: [0x38, 2, 0] }; // f32.store
const INT_LANES = { add: I32X4_ADD, lane: i32Lane, scalarAdd: I32_ADD, store: [0x36, 2, 0] }; // i32.store

/** Float32 dot products or squared distances, 8 floats a step. */
function scorer(l2: boolean): number[] {
  const term = (offset: number) =>
    l2
      ? [...get(0), ...get(6), I32_ADD, ...load(offset), ...get(7), ...load(offset), ...F32X4_SUB, ...tee(11), ...get(11), ...F32X4_MUL]
      : [...get(0), ...get(6), I32_ADD, ...load(offset), ...get(7), ...load(offset), ...F32X4_MUL];
  const step = [...get(8), ...term(0), ...F32X4_ADD, ...set(8), ...get(9), ...term(16), ...F32X4_ADD, ...set(9)];
  return overRows({ pointer: 1, step, pAdvance: 32, iAdvance: 32, lanes: FLOAT_LANES });
}

// Over int8 rows and an int16 query (quantized-block.ts): exact integer dot products, 64 values a step (rowBytes a
// multiple of 64) — a quarter of the float32 rows' bytes to read; the unrolled step keeps more loads in flight, which
// a 16-value step leaves at half the memory bandwidth.
export const STEP8 = 64;
function integerScorer(): number[] {
  const quarter = (u: number) => [
    ...get(8), ...get(1), ...get(6), I32_ADD, ...load(16 * u), ...tee(11), ...I16X8_EXTEND_LOW_I8X16_S, ...get(7), ...load(32 * u), ...I32X4_DOT_I16X8_S, ...I32X4_ADD, ...set(8),
    ...get(9), ...get(11), ...I16X8_EXTEND_HIGH_I8X16_S, ...get(7), ...load(32 * u + 16), ...I32X4_DOT_I16X8_S, ...I32X4_ADD, ...set(9),
  ];
  const step = [...quarter(0), ...quarter(1), ...quarter(2), ...quarter(3)];
  return overRows({ pointer: 0, step, pAdvance: 2 * STEP8, iAdvance: STEP8, lanes: INT_LANES });
}

export function moduleBytes(): Uint8Array {
  const types = section(1, vec([[0x60, ...vec([[I32], [I32], [I32], [I32], [I32]]), ...vec([])]]));
  // memory 1 page at least, at most 65536 (4 GiB), shared
  const imports = section(2, vec([[...name("m"), ...name("mem"), 0x02, 0x03, 0x01, ...leb(65536)]]));
  const functions = section(3, vec([[0], [0], [0]]));
  const exports = section(7, vec([[...name("dot"), 0x00, 0], [...name("l2"), 0x00, 1], [...name("dot8"), 0x00, 2]]));
  const code = section(10, vec([scorer(false), scorer(true), integerScorer()]));
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, ...types, ...imports, ...functions, ...exports, ...code]);
}

let compiled: WebAssembly.Module | null | undefined;

/** The compiled kernel, or null where WebAssembly SIMD is not available (search then scores in JavaScript). */
function kernelModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(moduleBytes());
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

type Scorer = (query: number, base: number, rows: number, rowBytes: number, out: number) => void;

const PAGE = 65536;

export interface KernelInstance {
  /** Shared, fixed at the size asked for (a block never grows in place). */
  memory: WebAssembly.Memory;
  buffer: ArrayBuffer;
  dot: Scorer;
  l2: Scorer;
  dot8: Scorer;
}

/** The kernel over a memory of at least `bytes`, or undefined where WebAssembly SIMD is not available. */
export function kernelInstance(bytes: number): KernelInstance | undefined {
  const module = kernelModule();
  if (!module) return undefined;
  const pages = Math.ceil(bytes / PAGE);
  const memory = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
  const { exports } = new WebAssembly.Instance(module, { m: { mem: memory } });
  return { memory, buffer: memory.buffer, dot: exports.dot as Scorer, l2: exports.l2 as Scorer, dot8: exports.dot8 as Scorer };
}

/** Rows of one dimension padded to a multiple of 8 floats (the kernel's step), in one WebAssembly memory. */
export class VectorBlock {
  /** The rows, row i at i × dimPad. */
  readonly rows: Float32Array;
  readonly scores: Float32Array;
  private readonly query: Float32Array;
  private readonly kernel: KernelInstance | undefined;
  private readonly rowsOffset: number;

  constructor(readonly dimPad: number, readonly capacity: number) {
    const queryBytes = dimPad * 4;
    const scoreBytes = capacity * 4;
    this.rowsOffset = queryBytes + scoreBytes;
    const bytes = this.rowsOffset + capacity * dimPad * 4;
    this.kernel = kernelInstance(bytes);
    const buffer = this.kernel?.buffer ?? new ArrayBuffer(bytes);
    this.query = new Float32Array(buffer, 0, dimPad);
    this.scores = new Float32Array(buffer, queryBytes, capacity);
    this.rows = new Float32Array(buffer, this.rowsOffset, capacity * dimPad);
  }

  get byteLength(): number {
    return this.rows.byteOffset + this.rows.byteLength;
  }

  /** Fills `scores` for rows [0, count): approximate dot products (or squared distances) with q; false without the kernel. */
  scoreAll(q: Float32Array, count: number, euclidean: boolean): boolean {
    const run = euclidean ? this.kernel?.l2 : this.kernel?.dot;
    if (!run) return false;
    this.query.set(q);
    if (count > 0) run(0, this.rowsOffset, count, this.dimPad * 4, this.query.byteLength);
    return true;
  }
}
