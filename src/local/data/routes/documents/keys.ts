import { invalid, quote } from "../../errors.js";
import type { JsonObject } from "../../validate.js";

/** Refuses a request field the operation does not take (a setting is honoured or refused, never dropped). */
export function checkKeys(body: JsonObject, allowed: readonly string[], what: string): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) throw invalid(`Unknown field ${quote(key)} in ${what} request; the fields are ${allowed.join(", ")}`);
  }
}
