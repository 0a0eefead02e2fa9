// The shortest decimal string that reads back as the same 32-bit float: Math.fround(Number(s)) === Math.fround(x).
//
// Fast path (no string parsing): for p digits, m = round(|x| / 10^q) with q = e - p + 1, and the check
// fround(m · 10^q) === x uses one multiplication or division of exact doubles (m < 2^53, 10^|q| ≤ 10^22 exact),
// which is exactly how Number(s) reads such a string (Clinger's fast path). So the check is the round-trip itself.
// Exponents outside that range (|q| > 22: values below ~1e-14 or above ~1e30) take the slow path via toPrecision.

const POW10: number[] = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

/** Shortest round-tripping decimal for Math.fround(x). Throws a RangeError for NaN and ±Infinity. */
export function float32ToString(value: number): string {
  const x = Math.fround(value);
  if (x === 0) return "0"; // -0 too: JSON "-0" would read back as -0, but both are the same float for ===
  if (!Number.isFinite(x)) throw new RangeError(`${value} is not a finite 32-bit float`);
  const a = x < 0 ? -x : x;
  // At a power of two the float's rounding interval is lopsided, so "p digits fail" no longer implies "fewer fail":
  // those few values take the exhaustive slow path.
  if (Number.isInteger(Math.log2(a))) return slowPath(x);
  let e = Math.floor(Math.log10(a));
  if (e + 1 < -13 || e > 22) return slowPath(x);
  // Most 32-bit floats need 8 or 9 digits: start at 8, walk down while it still round-trips, else take 9.
  let best = digitsAt(a, e, 8);
  if (best < 0) {
    // log10 can be off by one right below a power of ten
    if (best === TOO_MANY) e++;
    else if (best === TOO_FEW) e--;
    best = digitsAt(a, e, 8);
  }
  let p = 8;
  if (best >= 0) {
    for (let next = p - 1; next >= 1; next--) {
      const m = digitsAt(a, e, next);
      if (m < 0) break;
      best = m;
      p = next;
    }
  } else {
    p = 9;
    best = digitsAt(a, e, 9);
    if (best < 0) return slowPath(x);
  }
  let m = best;
  let exp = e - p + 1;
  while (m % 10 === 0) {
    m /= 10;
    exp++;
  }
  return (x < 0 ? "-" : "") + formatDecimal(String(m), exp);
}

const FAILS = -1;
const TOO_MANY = -2;
const TOO_FEW = -3;

/** The p-digit integer m with m·10^(e-p+1) nearest to a, if it reads back as a; else a negative reason. */
function digitsAt(a: number, e: number, p: number): number {
  const q = e - p + 1;
  const m = q >= 0 ? Math.round(a / POW10[q]) : Math.round(a * POW10[-q]);
  if (m >= POW10[p]) return TOO_MANY;
  if (m < POW10[p - 1]) return TOO_FEW;
  const back = q >= 0 ? m * POW10[q] : m / POW10[-q];
  return Math.fround(back) === a ? m : FAILS;
}

/** digits × 10^exp written the way JavaScript writes numbers (plain between 1e-7 and 1e21, else exponent form). */
function formatDecimal(digits: string, exp: number): string {
  const k = digits.length;
  const n = k + exp; // position of the decimal point
  if (k <= n && n <= 21) return digits + "0".repeat(exp);
  if (0 < n && n <= 21) return `${digits.slice(0, n)}.${digits.slice(n)}`;
  if (-6 < n && n <= 0) return `0.${"0".repeat(-n)}${digits}`;
  const mantissa = k === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  const e = n - 1;
  return `${mantissa}e${e < 0 ? "-" : "+"}${Math.abs(e)}`;
}

function slowPath(x: number): string {
  for (let p = 1; p < 9; p++) {
    const s = x.toPrecision(p);
    if (Math.fround(Number(s)) === x) return tidy(s);
  }
  return tidy(x.toPrecision(9));
}

/** toPrecision output without trailing zeros, e.g. "1.2300e-20" → "1.23e-20". */
function tidy(s: string): string {
  const [mantissa, exponent] = s.split("e");
  let m = mantissa;
  if (m.includes(".")) m = m.replace(/0+$/, "").replace(/\.$/, "");
  return exponent === undefined ? m : `${m}e${exponent}`;
}

/** The same as float32ToString, by repeated toPrecision: the reference the fast path is tested against. */
export function float32ToStringReference(value: number): string {
  const x = Math.fround(value);
  if (x === 0) return "0";
  if (!Number.isFinite(x)) throw new RangeError(`${value} is not a finite 32-bit float`);
  return slowPath(x);
}
