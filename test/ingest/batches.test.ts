import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BatchPlanner, MAX_BATCH_RECORDS, MAX_BODY_BYTES, encodeRecord, planBatches, type PlannedBatch } from "../../src/ingest/batches.js";
import { RecordCheckError, type UpsertRecord } from "../../src/ingest/check.js";

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function records(n: number, dim: number, scale = 1, seed = 1): UpsertRecord[] {
  const rnd = seeded(seed);
  return Array.from({ length: n }, (_, i) => ({
    id: `rec-${i}`,
    values: Array.from({ length: dim }, () => (rnd() * 2 - 1) * scale),
    metadata: { i, tag: `t${i % 3}` },
  }));
}

async function collect(input: UpsertRecord[] | AsyncIterable<UpsertRecord>, namespace?: string): Promise<PlannedBatch[]> {
  const out: PlannedBatch[] = [];
  for await (const b of planBatches(input, { namespace })) out.push(b);
  return out;
}

type Body = { vectors: { id: string; values: number[]; metadata?: unknown; sparseValues?: unknown }[]; namespace?: string };

function checkPlan(batches: PlannedBatch[], input: UpsertRecord[]) {
  let next = 0;
  for (const b of batches) {
    expect(b.body.length).toBeLessThanOrEqual(MAX_BODY_BYTES);
    expect(b.ids.length).toBeLessThanOrEqual(MAX_BATCH_RECORDS);
    expect(b.firstPosition).toBe(next);
    const parsed = JSON.parse(b.body.toString("utf8")) as Body;
    expect(parsed.vectors.map((v) => v.id)).toEqual(b.ids);
    parsed.vectors.forEach((v, k) => {
      const want = input[next + k];
      expect(v.id).toBe(want.id);
      expect(v.values.every((x, j) => Math.fround(x) === Math.fround(want.values![j]))).toBe(true);
      expect(v.metadata).toEqual(want.metadata);
    });
    next += b.ids.length;
  }
  expect(next).toBe(input.length);
}

describe("planBatches", () => {
  it("≤ 100 records per body, in order, with exact values as 32-bit floats", async () => {
    const input = records(250, 8);
    const batches = await collect(input, "ns");
    expect(batches.map((b) => b.ids.length)).toEqual([100, 100, 50]);
    expect(batches.map((b) => b.firstPosition)).toEqual([0, 100, 200]);
    expect((JSON.parse(batches[0].body.toString()) as Body).namespace).toBe("ns");
    for (const b of batches) {
      for (const v of (JSON.parse(b.body.toString()) as Body).vectors) {
        const want = input[Number(v.id.slice(4))];
        expect(v.values.map((x) => Math.fround(x))).toEqual(want.values!.map((x) => Math.fround(x)));
      }
    }
  });

  it("100 records of dimension 1536: every body ≤ 2,000,000 bytes; values near 1e-8 need a split", async () => {
    const typical = records(100, 1536);
    const a = await collect(typical);
    for (const b of a) expect(b.body.length).toBeLessThanOrEqual(MAX_BODY_BYTES);
    expect(a.reduce((n, b) => n + b.ids.length, 0)).toBe(100);

    const tiny = records(100, 1536, 1e-8, 7);
    const t = await collect(tiny);
    expect(t.length).toBeGreaterThan(1);
    for (const b of t) expect(b.body.length).toBeLessThanOrEqual(MAX_BODY_BYTES);
    expect(t.reduce((n, b) => n + b.ids.length, 0)).toBe(100);
    expect(t.map((b) => b.firstPosition)).toEqual([0, t[0].ids.length].slice(0, t.length));
  });

  it("full-precision doubles would exceed 2 MB in one body; ours are much smaller", () => {
    const input = records(100, 1536);
    const doubles = Buffer.byteLength(JSON.stringify({ vectors: input }));
    expect(doubles).toBeGreaterThan(MAX_BODY_BYTES);
    const ours = input.reduce((n, r) => n + Buffer.byteLength(encodeRecord(r)), 0);
    expect(ours / doubles).toBeLessThan(0.7);
  });

  it("fills bodies close to the byte limit and never over it", async () => {
    const input = records(1000, 3000, 1, 3);
    const batches = await collect(input);
    checkPlan(batches, input);
    for (const b of batches.slice(0, -1)) expect(b.body.length).toBeGreaterThan(MAX_BODY_BYTES - 40_000);
  });

  it("values of the longest written forms still make valid bodies under the limit", async () => {
    const input = Array.from({ length: 300 }, (_, i) => ({
      id: `big-${i}`,
      values: Array.from({ length: 1000 }, (_, j) => (j % 2 ? -1e20 : -1.2345678e-38)),
      metadata: { text: "é".repeat(1000) },
    }));
    const batches = await collect(input);
    expect(batches.length).toBeGreaterThan(3);
    checkPlan(batches, input);
  });

  it("reads an async stream lazily and plans it the same way", async () => {
    const input = records(230, 4);
    let pulled = 0;
    async function* stream() {
      for (const r of input) {
        pulled++;
        yield r;
      }
    }
    const gen = planBatches(stream());
    const first = await gen.next();
    expect(first.value?.ids.length).toBe(100);
    expect(pulled).toBe(101); // the record that closed the batch, no more
    const rest: PlannedBatch[] = [first.value as PlannedBatch];
    for await (const b of gen) rest.push(b);
    checkPlan(rest, input);
  });

  it("writes ids, metadata and sparse values as JSON, escaping what needs it", () => {
    const r: UpsertRecord = {
      id: 'q"u\\o\nte é',
      values: [0.1, -2, 1e-7],
      sparseValues: { indices: [3, 4294967295], values: [0.5, 0.25] },
      metadata: { title: "a\"b</script>", tags: ["x", "y"], n: 1.5, ok: false },
    };
    const s = encodeRecord(r);
    expect(s).toBe(
      '{"id":"q\\"u\\\\o\\nte é","values":[0.1,-2,1e-7],"sparseValues":{"indices":[3,4294967295],"values":[0.5,0.25]},' +
        '"metadata":{"title":"a\\"b</script>","tags":["x","y"],"n":1.5,"ok":false}}',
    );
    expect(JSON.parse(s)).toEqual({ ...r, values: [0.1, -2, 1e-7] });
  });

  it("a sparse-only record gets an empty dense list", () => {
    expect(encodeRecord({ id: "s", sparseValues: { indices: [1], values: [2] } })).toBe(
      '{"id":"s","values":[],"sparseValues":{"indices":[1],"values":[2]}}',
    );
  });

  it("a record too big for any body is a check failure naming it", () => {
    const planner = new BatchPlanner({ maxBytes: 1000 });
    expect(planner.add({ id: "small", values: [1] }, 0)).toBeUndefined();
    let err: unknown;
    try {
      planner.add({ id: "huge", values: new Array(500).fill(0.123) }, 1);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RecordCheckError);
    expect((err as RecordCheckError).problems).toEqual([
      {
        position: 1,
        id: "huge",
        field: "record",
        rule: `is ${encodeRecord({ id: "huge", values: new Array(500).fill(0.123) }).length} bytes as JSON; one request body may hold at most 1000 bytes`,
      },
    ]);
    expect(planner.flush()?.ids).toEqual(["small"]);
  });

  it("a non-finite value that slipped past the checks is a check failure, not a crash", () => {
    const planner = new BatchPlanner();
    expect(() => planner.add({ id: "n", values: [Number.NaN] }, 4)).toThrow(RecordCheckError);
  });
});

describe("planner, property-based", () => {
  const record = fc.record(
    {
      id: fc.string({ minLength: 1, maxLength: 20, unit: "grapheme" }),
      values: fc.array(fc.float({ noNaN: true, noDefaultInfinity: true }), { maxLength: 40 }),
      sparseValues: fc
        .uniqueArray(fc.nat({ max: 4294967295 }), { maxLength: 10 })
        .chain((indices) =>
          fc.record({ indices: fc.constant(indices), values: fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: indices.length, maxLength: indices.length }) }),
        ),
      metadata: fc.dictionary(
        fc.string({ maxLength: 8, unit: "grapheme" }),
        fc.oneof(fc.string({ unit: "grapheme" }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.array(fc.string())),
      ),
    },
    { requiredKeys: ["id", "values"] },
  );

  it("every body parses back to exactly the records (values as 32-bit floats), within both limits", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(record, { maxLength: 60 }), fc.integer({ min: 1, max: 20 }), fc.integer({ min: 2_000, max: 20_000 }), async (input, maxRecords, maxBytes) => {
        const batches: PlannedBatch[] = [];
        for await (const b of planBatches(input, { namespace: "ns", maxRecords, maxBytes })) batches.push(b);
        const back: unknown[] = [];
        let next = 0;
        for (const b of batches) {
          expect(b.body.length).toBeLessThanOrEqual(maxBytes);
          expect(b.ids.length).toBeLessThanOrEqual(maxRecords);
          expect(b.firstPosition).toBe(next);
          next += b.ids.length;
          back.push(...(JSON.parse(b.body.toString("utf8")) as Body).vectors);
        }
        const f32 = (xs: number[]) => xs.map((x) => Math.fround(x) || 0);
        for (const v of back as { values: number[]; sparseValues?: { values: number[] } }[]) {
          v.values = f32(v.values); // the service reads each value as a 32-bit float
          if (v.sparseValues) v.sparseValues.values = f32(v.sparseValues.values);
        }
        expect(back).toEqual(
          input.map((r) => ({
            id: r.id,
            values: f32(r.values),
            ...(r.sparseValues ? { sparseValues: { indices: r.sparseValues.indices, values: f32(r.sparseValues.values) } } : {}),
            ...(r.metadata ? { metadata: JSON.parse(JSON.stringify(r.metadata)) as unknown } : {}),
          })),
        );
      }),
      { numRuns: 300 },
    );
  });
});

