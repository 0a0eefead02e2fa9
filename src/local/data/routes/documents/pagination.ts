import { invalid } from "../../errors.js";
import type { Json } from "../../validate.js";

/** A page limit: an integer from 1 to `max`, `fallback` when absent. */
export function readLimit(value: Json | undefined, max: number, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > max) {
    throw invalid(`limit must be an integer from 1 to ${max}, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** The position a pagination token stands for (a token this service issued: base64url of a key position). */
export function readToken(value: Json | undefined): Buffer | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string" || !/^[A-Za-z0-9_-]+$/.test(value)) throw invalid("pagination_token is not a token this service issued");
  const position = Buffer.from(value, "base64url");
  if (position.toString("base64url") !== value) throw invalid("pagination_token is not a token this service issued");
  return position;
}

export function token(position: Buffer): string {
  return position.toString("base64url");
}
