// Before a route runs: unknown fields refused, filters checked against the index's filterable fields.
// An upsert's body is checked by the route itself (its usual form is read without JSON.parse).
import { checkBodyFields, checkFilterable, checkQueryFields, checkQueryTuning, hasBodyFields } from "./known-fields.js";
import type { DataPlaneIndex, DataPlaneRequest } from "./types.js";
import { field, parseBody } from "./validate.js";

export function checkRequestFields(path: string, req: DataPlaneRequest, index: DataPlaneIndex): void {
  if (req.method.toUpperCase() === "GET") return checkQueryFields(path, req.query);
  if (path === "/vectors/upsert" || !hasBodyFields(path)) return;
  const body = parseBody(req.body);
  checkBodyFields(path, body);
  checkFilterable(field(body, "filter"), index);
  if (path === "/query") checkQueryTuning(body, index);
}
