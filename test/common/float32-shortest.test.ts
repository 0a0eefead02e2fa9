import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { float32ToString, float32ToStringReference, writeFloat32 } from "../../src/common/float32.js";

/** Significant digits of a decimal string: "-0.000123e5" → 3. */
function digits(s: string): number {
  return s.replace(/^-/, "").replace(/e.*$/, "").replace(".", "").replace(/^0+/, "").replace(/0+$/, "").length;
}

/** Does some decimal with fewer significant digits than s read back as the same float? (nearest of each length) */
function shorterExists(x: number, s: string): boolean {
  const f = Math.fround(x);
  for (let p = 1; p < digits(s); p++) {
    if (Math.fround(Number(f.toPrecision(p))) === f) return true;
  }
  return false;
}

const anyFloat32 = fc.float({ noNaN: true, noDefaultInfinity: true }).filter((x) => Number.isFinite(x));

describe("float32ToString", () => {
  it("reads back as the same 32-bit float, and no shorter decimal does (any float32)", () => {
    fc.assert(
      fc.property(anyFloat32, (x) => {
        const s = float32ToString(x);
        expect(Math.fround(Number(s))).toBe(Math.fround(x) === 0 ? 0 : Math.fround(x));
        expect(shorterExists(x, s)).toBe(false);
      }),
      { numRuns: 20_000 },
    );
  });

  it("the same for doubles of embedding range, and valid JSON", () => {
    fc.assert(
      fc.property(fc.double({ min: -2, max: 2, noNaN: true }), (x) => {
        const s = float32ToString(x);
        expect(Math.fround(JSON.parse(s) as number)).toBe(Math.fround(x) === 0 ? 0 : Math.fround(x));
        expect(shorterExists(x, s)).toBe(false);
        expect(digits(s)).toBe(digits(float32ToStringReference(x)));
      }),
      { numRuns: 20_000 },
    );
  });

  it("writes known values", () => {
    expect(float32ToString(0.12345678918063641)).toBe("0.12345679");
    expect(float32ToString(0.1)).toBe("0.1");
    expect(float32ToString(-0.5)).toBe("-0.5");
    expect(float32ToString(1)).toBe("1");
    expect(float32ToString(0)).toBe("0");
    expect(float32ToString(-0)).toBe("0");
    expect(float32ToString(100)).toBe("100");
    expect(float32ToString(1e-7)).toBe("1e-7");
    expect(float32ToString(1.5e-10)).toBe("1.5e-10");
    expect(float32ToString(3.4028234663852886e38)).toBe("3.4028235e+38");
    expect(float32ToString(1.401298464324817e-45)).toBe("1e-45");
    expect(float32ToString(16777217)).toBe("16777216");
    expect(float32ToString(123456789)).toBe("123456790");
    expect(float32ToString(1e21)).toBe("1e+21");
  });

  it("refuses NaN and infinities", () => {
    expect(() => float32ToString(Number.NaN)).toThrow(RangeError);
    expect(() => float32ToString(Number.POSITIVE_INFINITY)).toThrow("Infinity is not a finite 32-bit float");
    expect(() => float32ToString(1e39)).toThrow(RangeError);
  });

  it("every float32 power of two and its neighbours round-trip at the shortest length", () => {
    for (let e = -149; e <= 127; e++) {
      const p = 2 ** e;
      const buf = new Float32Array([p]);
      const bits = new Uint32Array(buf.buffer);
      for (const delta of [-1, 0, 1]) {
        const b = new Uint32Array([bits[0] + delta]);
        const x = new Float32Array(b.buffer)[0];
        if (!Number.isFinite(x) || x === 0) continue;
        const s = float32ToString(x);
        expect(Math.fround(Number(s))).toBe(x);
        expect(shorterExists(x, s)).toBe(false);
      }
    }
  });
});

describe("writeFloat32", () => {
  it("writes the same ASCII as float32ToString, and says where it ended", () => {
    const buf = Buffer.alloc(50, 0x20);
    fc.assert(
      fc.property(fc.oneof(anyFloat32, fc.double({ min: -2, max: 2, noNaN: true })), fc.nat(20), (x, at) => {
        const end = writeFloat32(buf, at, x);
        expect(buf.toString("latin1", at, end)).toBe(float32ToString(x));
      }),
      { numRuns: 20_000 },
    );
  });

  it("refuses NaN", () => {
    expect(() => writeFloat32(Buffer.alloc(16), 0, Number.NaN)).toThrow(RangeError);
  });
});

describe("longest forms", () => {
  it("no value takes more than 22 bytes", () => {
    const buf = Buffer.alloc(64);
    for (const x of [-1e20, -9.99e20, -1.2345678e-38, -1.1754942e-38, -1e-6, -1.234567e-6, -3.4028235e38, -1.4e-45]) {
      expect(writeFloat32(buf, 0, x)).toBeLessThanOrEqual(22);
    }
    fc.assert(fc.property(anyFloat32, (x) => float32ToString(x).length <= 22));
  });
});
