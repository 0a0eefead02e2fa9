// The shortest decimal that reads back as the same 32-bit float: Math.fround(Number(s)) === Math.fround(x).
//
// Fast path (no string parsing): for p digits, m = round(|x| / 10^q) with q = e - p + 1, and the check
// fround(m · 10^q) === x uses one multiplication or division of exact doubles (m < 2^53, 10^|q| ≤ 10^22 exact),
// which is exactly how Number(s) reads such a string (Clinger's fast path). So the check is the round-trip itself.
// Exponents outside that range (values below ~1e-14 or above ~1e22) and exact powers of two (whose rounding interval
// is lopsided, so "p digits fail" does not imply "fewer digits fail") take the slow path via toPrecision.
// writeFloat32 writes the digits straight into a Buffer: no string per value on the hot path of batch encoding.

const POW10 = Float64Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));
const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
// For each biased binary exponent b of a normal float32 in [2^(b-127), 2^(b-126)): floor(log10) of the lower end, and
// the next power of ten; the decimal exponent is E10[b], or one more when the value reaches NEXT10[b].
const E10 = Int16Array.from({ length: 256 }, (_, b) => Math.floor(Math.log10(2 ** (b - 127))));
const NEXT10 = Float64Array.from(E10, (e) => Number(`1e${e + 1}`));

const FAILS = -1;
const TOO_MANY = -2;
const TOO_FEW = -3;
const SLOW = -4;

/** Decimal exponent of the last shortest() result: the value is m × 10^shortestExp. */
let shortestExp = 0;

/**
 * For a positive finite float32 a: the fewest significant digits m (trailing zeros removed, an int32) with
 * m × 10^shortestExp reading back as a; SLOW when the fast path does not apply.
 */
function shortest(a: number): number {
  F32[0] = a;
  const bits = U32[0];
  const b = bits >>> 23;
  if ((bits & 0x7fffff) === 0 || b === 0) return SLOW; // a power of two, or subnormal
  let e = E10[b];
  if (a >= NEXT10[b]) e++;
  if (e < -13 || e > 21) return SLOW;
  // 7 digits suffice for ~40% of floats, 8 for almost all others. Start at 7: if it round-trips, walk down while
  // fewer still do; if not, fewer cannot either (the float's rounding interval is symmetric), so try 8, then 9.
  let p = 7;
  let best = digitsAt(a, e, 7);
  if (best === TOO_MANY || best === TOO_FEW) {
    e += best === TOO_MANY ? 1 : -1; // safety net: the exponent table was off by one
    best = digitsAt(a, e, 7);
  }
  if (best >= 0) {
    for (let next = 6; next >= 1; next--) {
      const m = digitsAt(a, e, next);
      if (m < 0) break;
      best = m;
      p = next;
    }
  } else {
    p = 8;
    best = digitsAt(a, e, 8);
    if (best < 0) {
      p = 9;
      best = digitsAt(a, e, 9);
      if (best < 0) return SLOW;
    }
  }
  let exp = e - p + 1;
  let m = best | 0;
  while (m % 10 === 0) {
    m = (m / 10) | 0;
    exp++;
  }
  shortestExp = exp;
  return m;
}

/** The p-digit integer m with m·10^(e-p+1) nearest to a, if it reads back as a; else a negative reason. */
function digitsAt(a: number, e: number, p: number): number {
  const q = e - p + 1;
  let m: number;
  let back: number;
  if (q >= 0) {
    if (q > 22) return FAILS;
    m = Math.round(a / POW10[q]);
    back = m * POW10[q];
  } else {
    if (q < -22) return FAILS;
    m = Math.round(a * POW10[-q]);
    back = m / POW10[-q];
  }
  if (m >= POW10[p]) return TOO_MANY;
  if (m < POW10[p - 1]) return TOO_FEW;
  return Math.fround(back) === a ? m : FAILS;
}

/** Shortest round-tripping decimal for Math.fround(x). Throws a RangeError for NaN and ±Infinity. */
export function float32ToString(value: number): string {
  const x = Math.fround(value);
  if (x === 0) return "0"; // -0 too: JSON "-0" would read back as -0, but both are the same float for ===
  if (!Number.isFinite(x)) throw new RangeError(`${value} is not a finite 32-bit float`);
  const m = shortest(x < 0 ? -x : x);
  if (m === SLOW) return slowPath(x);
  return (x < 0 ? "-" : "") + formatDecimal(String(m), shortestExp);
}

/**
 * The double that the shortest decimal of Math.fround(value) reads as: Number(float32ToString(value)), without the
 * string. JSON.stringify writes that double as the same short decimal (any decimal of at most 15 significant digits
 * survives the trip through a double), so a service can answer [0.5, 0.4] for stored float32 values, not
 * [0.5, 0.4000000059604645]. m × 10^e for m < 2^53 and |e| ≤ 22 is exactly how Number() reads such a string (one
 * correctly rounded operation), so both give the same double. Non-finite values are returned as they are.
 */
export function float32Double(value: number): number {
  const x = Math.fround(value);
  if (x === 0 || !Number.isFinite(x)) return x === 0 ? 0 : x;
  const m = shortest(x < 0 ? -x : x);
  if (m === SLOW) return Number(slowPath(x));
  const e = shortestExp;
  const a = e >= 0 ? m * POW10[e] : m / POW10[-e];
  return x < 0 ? -a : a;
}

/** float32Double of every element, as a plain array (what a JSON answer holds). */
export function float32Doubles(values: ArrayLike<number>): number[] {
  const out = new Array<number>(values.length);
  for (let i = 0; i < values.length; i++) out[i] = float32Double(values[i]);
  return out;
}

// "00" … "99": digits are written two at a time, from the last one back.
const PAIRS = Uint8Array.from({ length: 200 }, (_, i) => 0x30 + (i & 1 ? (i >> 1) % 10 : Math.floor((i >> 1) / 10)));

/** Writes the digits of m (an int below 10^9) so that the last one lands just before `end`. */
function writeDigits(buf: Buffer, end: number, m: number): void {
  while (m >= 100) {
    const q = (m / 100) | 0;
    const r = (m - q * 100) << 1;
    buf[--end] = PAIRS[r + 1];
    buf[--end] = PAIRS[r];
    m = q;
  }
  if (m >= 10) {
    buf[--end] = PAIRS[(m << 1) + 1];
    buf[--end] = PAIRS[m << 1];
  } else buf[--end] = 0x30 + m;
}

function digitCount(m: number): number {
  if (m < 10000) return m < 100 ? (m < 10 ? 1 : 2) : m < 1000 ? 3 : 4;
  return m < 1000000 ? (m < 100000 ? 5 : 6) : m < 10000000 ? 7 : m < 100000000 ? 8 : 9;
}

/**
 * Writes float32ToString(value) as ASCII into buf at pos and returns the position after it. The caller makes sure
 * 24 bytes are free (the longest form is "-100000000000000000000", 22 bytes). Throws a RangeError for NaN and ±Infinity.
 */
export function writeFloat32(buf: Buffer, pos: number, value: number): number {
  const x = Math.fround(value);
  if (x === 0) {
    buf[pos] = 0x30;
    return pos + 1;
  }
  if (!Number.isFinite(x)) throw new RangeError(`${value} is not a finite 32-bit float`);
  const m = shortest(x < 0 ? -x : x);
  if (m === SLOW) return pos + buf.write(slowPath(x), pos, "latin1");
  if (x < 0) buf[pos++] = 0x2d; // "-"
  // the value is 0.d1…dk × 10^n; written the way JavaScript writes numbers (formatDecimal)
  const k = digitCount(m);
  const exp = shortestExp;
  const n = k + exp;
  if (-6 < n && n <= 0) {
    buf[pos++] = 0x30;
    buf[pos++] = 0x2e;
    for (let i = 0; i < -n; i++) buf[pos++] = 0x30;
    writeDigits(buf, pos + k, m);
    return pos + k;
  }
  if (0 < n && n < k) {
    const scale = POW10[k - n];
    const fraction = m % scale;
    writeDigits(buf, pos + n, (m - fraction) / scale);
    // the fraction with its leading zeros: scale + fraction is a 1 followed by them, and its 1 lands where the point goes
    writeDigits(buf, pos + k + 1, fraction + scale);
    buf[pos + n] = 0x2e;
    return pos + k + 1;
  }
  if (k <= n && n <= 21) {
    writeDigits(buf, pos + k, m);
    pos += k;
    for (let i = 0; i < exp; i++) buf[pos++] = 0x30;
    return pos;
  }
  // exponent form: d1[.d2…dk]e±E
  writeDigits(buf, pos + k + 1, m);
  buf[pos] = buf[pos + 1];
  if (k > 1) {
    buf[pos + 1] = 0x2e;
    pos += k + 1;
  } else pos += 1;
  buf[pos++] = 0x65; // "e"
  let e = n - 1;
  buf[pos++] = e < 0 ? 0x2d : 0x2b;
  if (e < 0) e = -e;
  if (e >= 10) buf[pos++] = 0x30 + Math.floor(e / 10);
  buf[pos++] = 0x30 + (e % 10);
  return pos;
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
