import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { float32Double, float32Doubles, float32ToString } from "../../src/common/float32.js";

const anyFloat32 = fc.float({ noNaN: true, noDefaultInfinity: true }).filter((x) => Number.isFinite(x));

describe("float32Double", () => {
  it("is the double the shortest decimal reads as, and JSON writes it as that decimal (any float32)", () => {
    fc.assert(
      fc.property(anyFloat32, (x) => {
        const d = float32Double(x);
        const s = float32ToString(x);
        expect(d).toBe(Number(s));
        expect(Math.fround(d)).toBe(Math.fround(x) === 0 ? 0 : Math.fround(x));
        expect(Number(JSON.stringify(d))).toBe(Number(s));
      }),
      { numRuns: 20_000 },
    );
  });

  it("prints what the hosted service prints", () => {
    expect(JSON.stringify(float32Doubles(Float32Array.from([0.5, 0.4, -0.1, 1e-8, 3.4028234663852886e38, 0])))).toBe(
      "[0.5,0.4,-0.1,1e-8,3.4028235e+38,0]",
    );
  });
});
