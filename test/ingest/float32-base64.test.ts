import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BadBase64, base64Length, decodeFloat32Base64, encodeFloat32Base64 } from "../../src/ingest/float32-base64.js";

/** What a client (numpy's `.astype("<f4").tobytes()`, an embeddings API) sends: little-endian float32, base64. */
function clientBase64(values: number[]): string {
  const view = new DataView(new ArrayBuffer(values.length * 4));
  values.forEach((v, i) => view.setFloat32(i * 4, v, true));
  return Buffer.from(view.buffer).toString("base64");
}

const rule = (text: string) => {
  const got = decodeFloat32Base64(text);
  return got instanceof BadBase64 ? got.rule : `decoded ${got.length} values`;
};

describe("decodeFloat32Base64", () => {
  it("gives back exactly the float32 values a client encoded, NaN and infinity included (any list)", () => {
    fc.assert(
      fc.property(fc.array(fc.float(), { maxLength: 40 }), (values) => {
        const got = decodeFloat32Base64(clientBase64(values));
        expect(got).toBeInstanceOf(Float32Array);
        expect(Array.from(got as Float32Array)).toEqual(values.map(Math.fround));
      }),
      { numRuns: 2000 },
    );
  });

  it("decodes into the scratch memory it is given, and takes a string without its = padding", () => {
    const scratch = Buffer.alloc(16);
    const got = decodeFloat32Base64(clientBase64([1.5]).replace(/=+$/, ""), scratch) as Float32Array;
    expect(Array.from(got)).toEqual([1.5]);
    expect(got.buffer).toBe(scratch.buffer);
  });

  it("encodes what it decodes, and base64Length is the length of the encoding", () => {
    for (const n of [0, 1, 2, 3, 767, 768]) {
      const values = Array.from({ length: n }, (_, i) => Math.fround(i / 7 - 3));
      const text = encodeFloat32Base64(values);
      expect(text).toBe(clientBase64(values));
      expect(text.length).toBe(base64Length(n));
      expect(Array.from(decodeFloat32Base64(text) as Float32Array)).toEqual(values);
    }
  });

  it("refuses what Node's own decoder would quietly misread, saying what is wrong", () => {
    const one = clientBase64([0.25, -2]); // 8 bytes: "AACAPgAAAMA="
    expect(one).toBe("AACAPgAAAMA=");
    const hint = "base64 here uses A–Z, a–z, 0–9, + and /, with at most two = at the end";
    expect(rule("AACAPg AAAMA=")).toBe(`is not base64: character 7 is " "; ${hint}`);
    expect(rule("AACAPgAA\nAMA=")).toBe(`is not base64: character 9 is "\\n"; ${hint}`);
    expect(rule("AACAPg==AAAMA=")).toBe(`is not base64: character 7 is "=" inside the text; ${hint}`);
    expect(rule("AACAPg_-AAAMA=")).toBe(`is not base64: character 7 is "_" (URL-safe base64); ${hint}`);
    expect(rule("AACAPgAAAMA===")).toBe(`is not base64: it ends in 3 "="; ${hint}`);
    expect(rule("AACAPgAAA")).toBe(`is not base64: 9 characters cannot be whole bytes (one too many or too few); ${hint}`);
    expect(rule("AACAPgAAAMB=")).toBe(`is not base64: its last character carries bits past the last byte (not what an encoder writes); ${hint}`);
    expect(rule("AACAPgAAAA==")).toBe("decodes to 7 bytes, not a whole number of float32 values (4 bytes each, little-endian)");
    expect(rule(one)).toBe("decoded 2 values");
    expect(rule("")).toBe("decoded 0 values");
  });
});
