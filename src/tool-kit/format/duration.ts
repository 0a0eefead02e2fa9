// Durations for tables: seconds with sensible precision, minutes and hours when long.

/** 0.0123 → "0.012 s", 1.234 → "1.23 s", 12.34 → "12.3 s", 75 → "1 min 15 s", 3725 → "1 h 2 min". */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "";
  if (seconds < 1) return `${Number(seconds.toFixed(3))} s`;
  if (seconds < 10) return `${Number(seconds.toFixed(2))} s`;
  if (seconds < 60) return `${Number(seconds.toFixed(1))} s`;
  const whole = Math.round(seconds);
  if (whole < 3600) {
    const m = Math.floor(whole / 60);
    const s = whole % 60;
    return s === 0 ? `${m} min` : `${m} min ${s} s`;
  }
  const h = Math.floor(whole / 3600);
  const m = Math.round((whole % 3600) / 60);
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/** Seconds elapsed since a performance.now() timestamp, rounded to milliseconds (for structured results). */
export function secondsSince(startMs: number): number {
  return Math.round(performance.now() - startMs) / 1000;
}
