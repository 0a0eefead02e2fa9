// Human sizes in decimal units (kB = 1000 bytes), as the service's own console shows them.

const UNITS = ["kB", "MB", "GB", "TB", "PB"];

/** 1234567 → "1.2 MB"; 999 → "999 B"; undefined (or not a finite non-negative number) → "". */
export function humanBytes(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n) || n < 0) return "";
  if (n < 1000) return `${Math.round(n)} B`;
  let value = n / 1000;
  let unit = 0;
  while (round(value) >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${round(value)} ${UNITS[unit]}`;
}

/** One decimal below 100, none above: 1.2, 12.3, 123. */
function round(v: number): number {
  return v < 99.95 ? Math.round(v * 10) / 10 : Math.round(v);
}
