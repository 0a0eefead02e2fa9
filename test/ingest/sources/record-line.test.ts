// The fast JSONL line reader must give exactly what JSON.parse gives (dense values rounded to float32), or step
// aside (undefined) and leave the line to JSON.parse. Checked number by number and line by line, on valid lines and
// on lines that are broken on purpose.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ScannedValues } from "../../../src/ingest/check.js";
import { MAYBE_TOO_LARGE, NOT_A_NUMBER, numberEnd, readNumber, scanNumber } from "../../../src/common/json-number.js";
import { encodeRecord } from "../../../src/ingest/batches.js";
import { NO_ROOM, readRecordLine, transcodeRecordLine } from "../../../src/ingest/sources/record-line.js";
import { recordFromObject } from "../../../src/ingest/sources/record-shape.js";

/** What the reader must return for a number: fround of JSON.parse, or JSON.parse's value when fround overflows. */
function expectedNumber(text: string): number {
  const value = JSON.parse(text) as number;
  const rounded = Math.fround(value);
  return Number.isFinite(rounded) ? rounded : value;
}

function read(text: string): { value: number; end: number } {
  const buf = Buffer.from(`${text},`);
  const value = readNumber(buf, 0, buf.length);
  return { value, end: numberEnd };
}

/** The line as JSON.parse reads it, with the dense values rounded to float32 the way the reader does. */
function expectedRecord(line: string): unknown {
  const parsed = JSON.parse(line) as Record<string, unknown>;
  if (Array.isArray(parsed.values)) parsed.values = parsed.values.map((v) => (typeof v === "number" ? expectedNumber(JSON.stringify(v)) : v));
  return parsed;
}

function readLine(line: string): Record<string, unknown> | undefined {
  const buf = Buffer.from(`${line}\n{"id":"next"}`); // bytes after the line must not be read
  return readRecordLine(buf, 0, Buffer.byteLength(line));
}

const spellings = (x: number): string[] => {
  const out = [String(x), JSON.stringify(x), x.toExponential(), x.toPrecision(17).replace(/\.?0+$/, "")];
  for (const p of [1, 6, 8, 9, 12, 16, 21]) out.push(x.toPrecision(p));
  return out.filter((s) => /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(s));
};

describe("readNumber", () => {
  it("gives fround(JSON.parse(text)) for any double, however it is spelled", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        for (const s of spellings(x)) {
          const { value, end } = read(s);
          expect(Object.is(value, expectedNumber(s)), `${s}: ${value} vs ${expectedNumber(s)}`).toBe(true);
          expect(end).toBe(s.length);
        }
      }),
      { numRuns: 5_000 },
    );
  });

  it("is exact at float32 rounding midpoints and next to them, where a few ulps decide", () => {
    fc.assert(
      fc.property(fc.float({ noNaN: true, noDefaultInfinity: true, min: Math.fround(-1e30), max: Math.fround(1e30) }), (f) => {
        const next = new Float32Array([f]);
        new Uint32Array(next.buffer)[0]++;
        const mid = (f + next[0]) / 2;
        for (const s of [String(mid), mid.toPrecision(17), mid.toPrecision(18), mid.toPrecision(21), mid.toPrecision(9)]) {
          if (!/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(s)) continue;
          expect(Object.is(read(s).value, expectedNumber(s)), s).toBe(true);
        }
      }),
      { numRuns: 20_000 },
    );
  });

  it("takes the short way for 0.ddd of any length (1–25 digits, leading zeros, either sign) with the same result", () => {
    const spelled = fc.tuple(fc.boolean(), fc.nat({ max: 5 }), fc.stringMatching(/^[0-9]{1,25}$/));
    fc.assert(
      fc.property(spelled, ([negative, zeros, digits]) => {
        const s = `${negative ? "-" : ""}0.${"0".repeat(zeros)}${digits}`;
        const { value, end } = read(s);
        expect(Object.is(value, expectedNumber(s)), s).toBe(true);
        expect(end).toBe(s.length);
      }),
      { numRuns: 10_000 },
    );
  });

  it("reads the edges: zeros, float32 overflow and underflow, long mantissas, big exponents", () => {
    for (const s of [
      "0", "-0", "0.0", "-0.000", "0e10", "1e400", "-1e400", "3.4028235e38", "3.4028235677973366e38", "3.4028236e38",
      "3.5e38", "1e-50", "1.401298464324817e-45", "7e-46", "1.1754943508222875e-38", "0.000123",
      "123456789012345678901234", "1E5", "1e+5", "12345678901234567890.5", "0.1000000000000000000000000001",
      "9007199254740993", "1e-7", "100000000000000000000000",
    ]) {
      const { value, end } = read(s);
      expect(Object.is(value, expectedNumber(s)), s).toBe(true);
      expect(end).toBe(s.length);
    }
  });

  it("gives NaN where no JSON number starts, and stops where one ends", () => {
    for (const s of ["-", "1.", ".5", "1e", "+1", "--1", "1e+", "NaN", "Infinity", "x"]) expect(read(s).value, s).toBeNaN();
    expect(read("01")).toEqual({ value: 0, end: 1 }); // the caller sees the "1" and steps aside
  });
});

describe("scanNumber", () => {
  const scan = (s: string) => {
    const buf = Buffer.from(`${s},`);
    return scanNumber(buf, 0, buf.length);
  };

  it("finds the end of every JSON number, and sends everything from 1e38 up to readNumber", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        for (const s of spellings(x)) {
          const got = scan(s);
          if (Math.abs(Number(s)) < 1e38) expect(got, s).toBe(s.length);
          else expect(got, s).toBe(Math.abs(Number(s)) >= 1e39 ? MAYBE_TOO_LARGE : got); // at 1e38 exactly, either
        }
      }),
      { numRuns: 5_000 },
    );
    for (const s of ["1e38", "3.5e38", "1e400", "100000000000000000000000000000000000000"]) expect(scan(s), s).toBe(MAYBE_TOO_LARGE);
    for (const s of ["9.99e37", "0.5e38", "1e-400", "-0", "0.000e5"]) expect(scan(s), s).toBe(s.length);
  });

  it("refuses what is not a JSON number", () => {
    for (const s of ["-", "1.", ".5", "1e", "+1", "--1", "1e+", "NaN", "x", "-x"]) expect(scan(s), s).toBe(NOT_A_NUMBER);
  });
});

describe("readRecordLine", () => {
  it("with scan, gives the count of the dense values in their place, or steps aside as without", () => {
    const value = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom("1e39", "1e400", "-1e400", "null", '"1"', "01", "1."));
    fc.assert(
      fc.property(fc.array(value, { maxLength: 12 }), (vals) => {
        const line = `{"id":"x","values":[${vals.map((v) => (typeof v === "number" ? JSON.stringify(v) : v)).join(",")}],"metadata":{"a":1}}`;
        const read = readLine(line);
        const scanned = readRecordLine(Buffer.from(line), 0, Buffer.byteLength(line), true);
        const fits = read !== undefined && (read.values as number[]).every((v) => Number.isFinite(Math.fround(v)));
        if (fits) expect(scanned).toEqual({ ...read, values: new ScannedValues((read.values as number[]).length) });
        else expect(scanned, line).toBeUndefined();
      }),
      { numRuns: 3_000 },
    );
  });

  it("reads the usual lines exactly as JSON.parse does, values rounded to float32", () => {
    const record = fc.record(
      {
        id: fc.string({ maxLength: 20 }),
        values: fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { maxLength: 20 }),
        metadata: fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.array(fc.string()))),
        sparse_values: fc.record({ indices: fc.array(fc.nat()), values: fc.array(fc.float({ noNaN: true, noDefaultInfinity: true })) }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(record, fc.boolean(), (r, spaced) => {
        const line = spaced ? JSON.stringify(r, null, 1).replace(/\n/g, " ") : JSON.stringify(r);
        const got = readLine(line);
        // ids and keys with escapes are left to JSON.parse; everything else is read here
        if (got !== undefined || !(/\\/.test(JSON.stringify(r.id ?? "")) || /[\u0000-\u001f]/.test(r.id ?? ""))) {
          expect(got).toEqual(expectedRecord(line));
        }
      }),
      { numRuns: 5_000 },
    );
  });

  it("steps aside, never guesses, on anything else", () => {
    const lines = [
      '{"id":"a","values":[1,2,]}', '{"id":"a","values":[1,,2]}', '{"id":"a","values":[1 2]}', '{"id":"a","values":[1,null]}',
      '{"id":"a","values":["1"]}', '{"id":"a","values":[01]}', '{"id":"a","values":[1]', '{"id":"a","values":[1]}x',
      '{"id":"a","values":[1]},', '{"id":"a","id":"b"}', '{"id":"a","vector":[1]}', '{"__proto__":{"x":1}}', '{"id":"a\\n"}',
      '{"i\\u0064":"a"}', '{"id":"a","metadata":{"x":}}', '{"id":"a","metadata":}', '{"id":a}', '{"id":"a" "values":[1]}',
      '{"id":"a",}', '["id"]', "", "   ", '{"id":"a","values":[1e]}', '{"id":"a","values":[NaN]}', '{"id":"a\tb"}',
      '{"id":"a","metadata":{"s":"unterminated}}',
    ];
    for (const line of lines) expect(readLine(line), line).toBeUndefined();
  });

  it("reads random text only when JSON.parse agrees", () => {
    const json = fc.oneof(fc.json(), fc.string().map((s) => `{"id":${s}}`), fc.string().map((s) => `{"id":"x","values":[${s}]}`));
    fc.assert(
      fc.property(json, (line) => {
        const got = readLine(line);
        if (got !== undefined) expect(got).toEqual(expectedRecord(line));
      }),
      { numRuns: 5_000 },
    );
  });

  it("takes whitespace where JSON allows it, and a metadata of any JSON", () => {
    const line = ' \t{ "id" : "é—ü" ,\r"values" : [ 0.5 , -1e-3 ] , "metadata" : { "a" : [ "x" , "y" ] , "b" : { "c" : null } } } ';
    expect(readLine(line)).toEqual({ id: "é—ü", values: [0.5, Math.fround(-1e-3)], metadata: { a: ["x", "y"], b: { c: null } } });
    expect(readLine('{"id":"a","values":[]}')).toEqual({ id: "a", values: [] });
    expect(readLine("{}")).toEqual({});
  });
});

/** The line transcoded, as the parsed JSON sent, with its id; undefined when the transcoder steps aside. */
function transcode(line: string): { sent: unknown; id: string } | undefined {
  const buf = Buffer.from(`${line}\n{"id":"next"}`);
  const out = Buffer.alloc(64 * Buffer.byteLength(line) + 64);
  const t = transcodeRecordLine(buf, 0, Buffer.byteLength(line), out);
  if (t === NO_ROOM) throw new Error("no room");
  return t && { sent: JSON.parse(out.toString("utf8", 0, t.length)), id: t.id };
}

/** What the long way sends for the line: JSON.parse, the record reader, then the planner's encoding. */
function longWay(line: string): unknown {
  const shaped = recordFromObject(JSON.parse(line));
  if (shaped.record === undefined) throw new Error(shaped.error);
  return JSON.parse(encodeRecord(shaped.record));
}

describe("transcodeRecordLine", () => {
  it("sends exactly what the long way sends: same id, values as float32, metadata (any key order, any spacing)", () => {
    const record = fc.record(
      {
        id: fc.string({ minLength: 1, maxLength: 20 }),
        values: fc.array(fc.double({ noNaN: true, noDefaultInfinity: true, min: -3e38, max: 3e38 }), { maxLength: 20 }),
        metadata: fc.option(fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.array(fc.string())))),
      },
      { requiredKeys: ["id", "values"] },
    );
    fc.assert(
      fc.property(record, fc.boolean(), fc.boolean(), (r, spaced, reversed) => {
        const ordered = reversed ? Object.fromEntries(Object.entries(r).reverse()) : r;
        const line = spaced ? JSON.stringify(ordered, null, 1).replace(/\n/g, " ") : JSON.stringify(ordered);
        const got = transcode(line);
        const plainId = !/[\\\u0000-\u001f"]/.test(r.id);
        if (plainId) expect(got, line).toBeDefined();
        if (got !== undefined) {
          expect(got.sent).toEqual(longWay(line));
          expect(got.id).toBe(r.id);
        }
      }),
      { numRuns: 3_000 },
    );
  });

  it("writes each value as its shortest float32 decimal and keeps a non-ASCII id as the line decodes it", () => {
    const line = '{"id":"caf\u00e9-ü","values":[0.12345678918063641,1E5,-0,3.4028235e38,1e-45],"metadata":{"k":"v"}}';
    const buf = Buffer.from(line.replace("\\u00e9", "é"));
    const out = Buffer.alloc(1024);
    const t = transcodeRecordLine(buf, 0, buf.length, out);
    if (t === undefined || t === NO_ROOM) throw new Error("not transcoded");
    expect(t.id).toBe("café-ü");
    expect(out.toString("utf8", 0, t.length)).toBe('{"id":"café-ü","values":[0.12345679,100000,0,3.4028235e+38,1e-45],"metadata":{"k":"v"}}');
  });

  it("says NO_ROOM when the record does not fit, at any size of the buffer, and never gives a cut record", () => {
    const line = JSON.stringify({ id: "é-id", values: [1e5, 0.1, -2.5e-8, 3], metadata: { k: "v".repeat(30) } });
    const buf = Buffer.from(line);
    const full = Buffer.alloc(1024);
    const whole = transcodeRecordLine(buf, 0, buf.length, full);
    if (whole === undefined || whole === NO_ROOM) throw new Error("not transcoded");
    for (let size = 0; size < whole.length + 40; size++) {
      const out = Buffer.alloc(size);
      const t = transcodeRecordLine(buf, 0, buf.length, out);
      if (t === NO_ROOM) continue;
      expect(t && out.toString("utf8", 0, t.length)).toBe(full.toString("utf8", 0, whole.length));
    }
  });

  it("steps aside for what it does not send itself: sparse values, no values, null values, values out of range, bad metadata", () => {
    for (const line of [
      '{"id":"a","sparse_values":{"indices":[1],"values":[0.5]}}', '{"id":"a","values":[1],"sparseValues":{"indices":[1],"values":[0.5]}}',
      '{"id":"a"}', '{"values":[1]}', '{"id":"a","values":null}', '{"id":"a","values":[1e39]}', '{"id":"a","values":[1e400]}',
      '{"id":"a","values":[-1e400]}', '{"id":"a","values":[1],"metadata":[1]}', '{"id":"a","values":[1],"metadata":"x"}',
      '{"id":"a","values":[1],"metadata":{"x":1},"metadata":{}}', '{"id":5,"values":[1]}', '{"id":"a","values":[1],"extra":1}',
      '{"id":"a","values":[1],"constructor":1}', '{"__proto__":{},"id":"a","values":[1]}', '{"id":"a","toString":[1],"values":[1]}',
    ]) {
      expect(transcode(line), line).toBeUndefined();
    }
    expect(transcode('{"id":"a","values":[1],"metadata":null}')?.sent).toEqual({ id: "a", values: [1] });
  });
});
