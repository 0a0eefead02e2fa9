// Reads a JSON number from bytes as the value the service will store: Math.fround(JSON.parse(text)), without making
// a string or finding the exact double first.
//
// Hand-written because this is the import's hot loop (a 100,000 × 768 file has 77 million numbers) and V8's
// JSON.parse spends ~130 ns on each 17-digit number. The digits are gathered into a double and scaled by one power
// of ten, which can be a few units in the last place (ulp) away from the correctly rounded double D that JSON.parse
// gives. Rounding to float32 drops 29 of the double's 52 fraction bits; fround(d) ≠ fround(D) is only possible when
// a float32 rounding midpoint lies between d and D, i.e. when d's dropped bits are within a few ulps of half. Those
// values (about one in 10 million), and everything outside the plain range (subnormal or overflowing float32, more
// than 22 powers of ten), are read exactly with Number() instead. Digits past the 19th (the 18th on the short way)
// only shift the exponent: they move d by far less than an ulp, which the guard covers.

const POW10 = Float64Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));
const F64 = new Float64Array(1);
const LOW = new Uint32Array(F64.buffer); // LOW[0]: the low 32 bits of the double's fraction (little-endian)
const GUARD = 64; // ulps around the midpoint that go the exact way; the error of d is at most ~3 ulps
const HALF = 1 << 28; // the 29 dropped bits of a float32 midpoint: 1 followed by 28 zeros
const DROPPED = (1 << 29) - 1;
const MIN_NORMAL_F32 = 1.1754943508222875e-38;
const MAX_PLAIN = 1e38; // below float32's largest value (3.4e38): nothing near overflow takes the inexact way

/** Where the last readNumber stopped: the index of the first byte after the number. */
export let numberEnd = 0;

/**
 * Reads the JSON number starting at buf[pos] (before `end`). Returns fround of its value — except for values that
 * do not fit a float32 (|x| ≥ 1e38 and overflow), which come back exactly as JSON.parse reads them, so that checks
 * can name them — and sets numberEnd; NaN when the bytes are not a JSON number (the caller then hands the line to
 * JSON.parse, which words the error).
 */
export function readNumber(buf: Uint8Array, pos: number, end: number): number {
  // The usual embedding value, [-]0.ddd…d without an exponent, has a shorter way (the same arithmetic).
  const negative = buf[pos] === 0x2d;
  const p = negative ? pos + 1 : pos;
  if (buf[p] === 0x30 && buf[p + 1] === 0x2e) {
    let at = p + 2;
    let d = buf[at] - 0x30;
    let zeros = 0;
    while (d === 0) {
      zeros++;
      d = buf[++at] - 0x30;
    }
    let hi = 0;
    let n = 0;
    while (d >= 0 && d <= 9 && n < 9) {
      hi = hi * 10 + d;
      n++;
      d = buf[++at] - 0x30;
    }
    let mantissa = hi;
    let digits = n;
    if (n === 9) {
      let lo = 0;
      let m = 0;
      while (d >= 0 && d <= 9 && m < 9) {
        lo = lo * 10 + d;
        m++;
        d = buf[++at] - 0x30;
      }
      mantissa = hi * POW10[m] + lo;
      digits += m;
      while (d >= 0 && d <= 9) d = buf[++at] - 0x30; // past 18 digits: only the guard below can tell
    }
    const scale = zeros + digits;
    if (d !== 0x65 - 0x30 && d !== 0x45 - 0x30 && d !== 0x2e - 0x30 && digits > 0 && scale <= 22 && at <= end) {
      numberEnd = at;
      const value = mantissa / POW10[scale];
      if (digits > 15) {
        if (value < MIN_NORMAL_F32) return exact(buf, pos, at);
        F64[0] = value;
        const bits = LOW[0] & DROPPED;
        if (bits > HALF - GUARD && bits < HALF + GUARD) return exact(buf, pos, at);
      }
      return Math.fround(negative ? -value : value);
    }
  }
  return readAnyNumber(buf, pos, end);
}

/** readNumber for every other spelling. */
function readAnyNumber(buf: Uint8Array, pos: number, end: number): number {
  // The digit loops do not test `end`: past it lies a newline, the next line's "{" or nothing (undefined), none of
  // them a digit; a number that would run past `end` is refused at the end.
  const start = pos;
  const negative = buf[pos] === 0x2d;
  if (negative) pos++;
  // Digits are gathered nine at a time in an int (short dependency chains), then folded into the double mantissa.
  let mantissa = 0;
  let chunk = 0;
  let chunkDigits = 0;
  let digits = 0; // significant digits gathered (at most 19)
  let dropped = 0; // digits left of the point that did not fit (each one multiplies by ten)
  let exponent = 0;
  let d = buf[pos] - 0x30;
  if (d === 0) {
    d = buf[++pos] - 0x30;
  } else if (d >= 1 && d <= 9) {
    do {
      if (digits < 19) {
        chunk = chunk * 10 + d;
        digits++;
        if (++chunkDigits === 9) {
          mantissa = mantissa * 1e9 + chunk;
          chunk = 0;
          chunkDigits = 0;
        }
      } else dropped++;
      d = buf[++pos] - 0x30;
    } while (d >= 0 && d <= 9);
  } else return Number.NaN;
  if (d === 0x2e - 0x30) {
    d = buf[++pos] - 0x30;
    if (!(d >= 0 && d <= 9)) return Number.NaN;
    if (digits === 0) {
      // leading zeros of 0.000123 are not significant
      while (d === 0) {
        exponent--;
        d = buf[++pos] - 0x30;
      }
    }
    while (d >= 0 && d <= 9) {
      if (digits < 19) {
        chunk = chunk * 10 + d;
        digits++;
        exponent--;
        if (++chunkDigits === 9) {
          mantissa = mantissa * 1e9 + chunk;
          chunk = 0;
          chunkDigits = 0;
        }
      }
      d = buf[++pos] - 0x30;
    }
  }
  if (d === 0x65 - 0x30 || d === 0x45 - 0x30) {
    d = buf[++pos] - 0x30;
    const expNegative = d === 0x2d - 0x30;
    if (expNegative || d === 0x2b - 0x30) d = buf[++pos] - 0x30;
    if (!(d >= 0 && d <= 9)) return Number.NaN;
    let e = 0;
    do {
      if (e < 100_000) e = e * 10 + d;
      d = buf[++pos] - 0x30;
    } while (d >= 0 && d <= 9);
    exponent += expNegative ? -e : e;
  }
  if (pos > end) return Number.NaN;
  numberEnd = pos;
  mantissa = mantissa * POW10[chunkDigits] + chunk;
  if (mantissa === 0) return negative ? -0 : 0;
  exponent += dropped;
  let value: number;
  if (exponent >= 0 && exponent <= 22) value = mantissa * POW10[exponent];
  else if (exponent < 0 && exponent >= -22) value = mantissa / POW10[-exponent];
  else return exact(buf, start, pos);
  if (digits > 15) {
    // d may be a few ulps off: near a float32 midpoint, or outside float32's normal range, read it exactly
    if (value < MIN_NORMAL_F32 || value >= MAX_PLAIN) return exact(buf, start, pos);
    F64[0] = value;
    const bits = LOW[0] & DROPPED;
    if (bits > HALF - GUARD && bits < HALF + GUARD) return exact(buf, start, pos);
  }
  // ≤ 15 digits and one exact power of ten: d is the correctly rounded double already (Clinger's fast path)
  const rounded = Math.fround(negative ? -value : value);
  return rounded === Infinity || rounded === -Infinity ? exact(buf, start, pos) : rounded;
}

/** readNumber's value is one a float32 store takes: not NaN, not ±Infinity, not a value fround would change. */
export function isFloat32(value: number): boolean {
  return Math.fround(value) === value && value !== Infinity && value !== -Infinity;
}

/** The number as JSON.parse reads it, rounded to float32 unless it does not fit one (then as is, for the checks). */
function exact(buf: Uint8Array, start: number, end: number): number {
  let text = "";
  for (let i = start; i < end; i++) text += String.fromCharCode(buf[i]);
  const value = Number(text);
  const rounded = Math.fround(value);
  return Number.isFinite(rounded) ? rounded : value;
}

/** scanNumber: the bytes are not a JSON number. */
export const NOT_A_NUMBER = -1;
/** scanNumber: a JSON number that may be too large for a float32 (10^38 or more): read it with readNumber. */
export const MAYBE_TOO_LARGE = -2;

/**
 * Checks the JSON number at buf[pos] without reading its value (the check pass only needs to know that it is one
 * and that it fits a float32): returns the index after it, NOT_A_NUMBER, or MAYBE_TOO_LARGE. A number below 10^38
 * always fits (tiny ones round towards 0, as the service rounds them).
 */
export function scanNumber(buf: Uint8Array, pos: number, end: number): number {
  if (buf[pos] === 0x2d) pos++;
  let d = buf[pos] - 0x30;
  let integerDigits = 0;
  if (d === 0) {
    d = buf[++pos] - 0x30;
  } else if (d >= 1 && d <= 9) {
    do {
      integerDigits++;
      d = buf[++pos] - 0x30;
    } while (d >= 0 && d <= 9);
  } else return NOT_A_NUMBER;
  if (d === 0x2e - 0x30) {
    d = buf[++pos] - 0x30;
    if (!(d >= 0 && d <= 9)) return NOT_A_NUMBER;
    do d = buf[++pos] - 0x30;
    while (d >= 0 && d <= 9);
  }
  let exponent = 0;
  if (d === 0x65 - 0x30 || d === 0x45 - 0x30) {
    d = buf[++pos] - 0x30;
    const negative = d === 0x2d - 0x30;
    if (negative || d === 0x2b - 0x30) d = buf[++pos] - 0x30;
    if (!(d >= 0 && d <= 9)) return NOT_A_NUMBER;
    do {
      if (exponent < 100_000) exponent = exponent * 10 + d;
      d = buf[++pos] - 0x30;
    } while (d >= 0 && d <= 9);
    if (negative) exponent = -exponent;
  }
  if (pos > end) return NOT_A_NUMBER;
  // below 10^(integer digits + exponent), or below 10^exponent for 0.…
  return integerDigits + exponent > 38 ? MAYBE_TOO_LARGE : pos;
}
