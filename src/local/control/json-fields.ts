// Reading fields of a control-plane JSON body: a wrong JSON type or a missing required field is 422 (the real
// service fails to deserialize it), an unknown key is refused rather than dropped.
import { invalid, unprocessable, type ControlError } from "./errors.js";

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v === "number" && Number.isInteger(v) ? "integer" : typeof v;
}

export function typeError(field: string, v: unknown, expected: string): ControlError {
  return unprocessable(`${field}: invalid type: ${jsonType(v)}, expected ${expected}`);
}

export function str(obj: Record<string, unknown>, key: string, field: string, required: boolean): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null) {
    if (required) throw unprocessable(`missing field \`${field}\``);
    return undefined;
  }
  if (typeof v !== "string") throw typeError(field, v, "a string");
  return v;
}

export function int(obj: Record<string, unknown>, key: string, field: string): number | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v)) throw typeError(field, v, "an integer");
  return v;
}

export function obj(parent: Record<string, unknown>, key: string, field: string, required: boolean): Record<string, unknown> | undefined {
  const v = parent[key];
  if (v === undefined || v === null) {
    if (required) throw unprocessable(`missing field \`${field}\``);
    return undefined;
  }
  if (!isObject(v)) throw typeError(field, v, "an object");
  return v;
}

/** Refuses any key of `o` not in `known`: a setting this service does not know is never dropped in silence. */
export function onlyKnown(o: Record<string, unknown>, known: readonly string[], where: string): void {
  for (const key of Object.keys(o)) {
    if (known.includes(key) || o[key] === undefined) continue;
    const at = where === "" ? key : `${where}.${key}`;
    throw invalid(`${at} is not a setting the local service knows, so it is refused rather than ignored; known${where === "" ? "" : ` in ${where}`}: ${known.join(", ")}.`);
  }
}
