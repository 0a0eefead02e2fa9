// An int8 copy of a block's float32 rows, for a first pass that reads a quarter of the bytes. Each row is scaled so its
// largest magnitude is 127 and rounded; the row's scale and the length of what rounding lost (|v − scale·V|) are kept,
// so that search/quantized-search.ts can bound how far the integer score is from the exact one and still return exactly
// what scoring every record in float64 returns. The query is rounded to int16 the same way, with its own loss.
//
// One block is one WebAssembly memory: [query: dimPadQ int16][scores: capacity int32][rows: capacity × dimPadQ int8],
// dimPadQ being the dimension padded to the kernel's step.
import { kernelInstance, STEP8, type KernelInstance } from "./kernel.js";
import type { Segment } from "./kernel-worker.js";

/** Largest |V| of a stored value. */
const ROW_MAX = 127;

export interface QuantizedQuery {
  values: Int16Array;
  scale: number;
  /** |q − scale·Q|: what rounding the query lost. */
  loss: number;
}

/** Rows padded to the kernel's step. */
export const padToStep = (dimension: number): number => Math.ceil(dimension / STEP8) * STEP8;

export class QuantizedBlock {
  readonly rows: Int8Array;
  readonly scores: Int32Array;
  /** Per row: the factor from the int8 values back to the float32 ones (0 for a row of zeros). */
  readonly scale: Float64Array;
  /** Per row: |v − scale·V|. */
  readonly loss: Float64Array;
  private readonly query: Int16Array;
  private readonly rowsOffset: number;

  private constructor(private readonly kernel: KernelInstance, readonly dimPadQ: number, readonly capacity: number) {
    const queryBytes = dimPadQ * 2;
    this.rowsOffset = queryBytes + capacity * 4;
    this.query = new Int16Array(kernel.buffer, 0, dimPadQ);
    this.scores = new Int32Array(kernel.buffer, queryBytes, capacity);
    this.rows = new Int8Array(kernel.buffer, this.rowsOffset, capacity * dimPadQ);
    this.scale = new Float64Array(capacity);
    this.loss = new Float64Array(capacity);
  }

  static bytesFor(dimPadQ: number, capacity: number): number {
    return dimPadQ * 2 + capacity * (4 + dimPadQ + 16);
  }

  /** A block of `capacity` rows, or undefined where the kernel cannot run (search then uses the float32 rows only). */
  static create(dimension: number, capacity: number): QuantizedBlock | undefined {
    const dimPadQ = padToStep(dimension);
    const kernel = kernelInstance(dimPadQ * 2 + capacity * (4 + dimPadQ));
    return kernel && new QuantizedBlock(kernel, dimPadQ, capacity);
  }

  /** Stores row j as int8 (`values`: the row's float32 values). */
  set(j: number, values: Float32Array): void {
    let max = 0;
    for (let i = 0; i < values.length; i++) max = Math.max(max, Math.abs(values[i]));
    const out = this.rows.subarray(j * this.dimPadQ, (j + 1) * this.dimPadQ);
    if (max === 0) {
      out.fill(0);
      this.scale[j] = 0;
      this.loss[j] = 0;
      return;
    }
    const scale = max / ROW_MAX;
    const inverse = ROW_MAX / max;
    let lost = 0;
    for (let i = 0; i < values.length; i++) {
      // Math.floor(x + 0.5), not Math.round or a test of the sign: branch-free, 3× faster on random signs. Any
      // integer would keep the search exact (the loss is measured from the one chosen); the nearest keeps it small.
      const q = Math.floor(values[i] * inverse + 0.5);
      out[i] = q;
      const d = values[i] - scale * q;
      lost += d * d;
    }
    this.scale[j] = scale;
    this.loss[j] = Math.sqrt(lost);
  }

  copyFrom(other: QuantizedBlock): void {
    this.rows.set(other.rows);
    this.scale.set(other.scale);
    this.loss.set(other.loss);
  }

  setQuery(q: QuantizedQuery): void {
    this.query.set(q.values);
  }

  /** Fills `scores` for rows [first, first + count) with the integer dot products Σ Q·V of the query set. */
  scoreRows(first: number, count: number): void {
    if (count > 0) this.kernel.dot8(0, this.rowsOffset + first * this.dimPadQ, count, this.dimPadQ, this.scores.byteOffset + first * 4);
  }

  /** The same job, for the worker thread (kernel-worker.ts). */
  segment(first: number, count: number): Segment {
    return { memory: this.kernel.memory, rowsOffset: this.rowsOffset, rowBytes: this.dimPadQ, first, count, queryOffset: 0, scoresOffset: this.scores.byteOffset };
  }

  scoreAll(q: QuantizedQuery, count: number): void {
    this.setQuery(q);
    this.scoreRows(0, count);
  }
}

/** The query as int16 values no larger than keeps every row's Σ Q·V inside an int32 (|V| ≤ 127). */
export function quantizeQuery(q: Float32Array, dimPadQ: number): QuantizedQuery {
  const top = Math.min(16383, Math.floor((2 ** 31 - 1) / (dimPadQ * (ROW_MAX + 1))));
  const values = new Int16Array(dimPadQ);
  let max = 0;
  for (let i = 0; i < q.length; i++) max = Math.max(max, Math.abs(q[i]));
  if (max === 0) return { values, scale: 0, loss: 0 };
  const scale = max / top;
  let lost = 0;
  for (let i = 0; i < q.length; i++) {
    const v = Math.round(q[i] / scale);
    values[i] = v;
    const d = q[i] - scale * v;
    lost += d * d;
  }
  return { values, scale, loss: Math.sqrt(lost) };
}
