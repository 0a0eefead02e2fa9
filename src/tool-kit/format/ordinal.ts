/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st…: a position as a note names it. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix}`;
}
