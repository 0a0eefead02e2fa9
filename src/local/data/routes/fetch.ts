// GET /vectors/fetch?ids=a&ids=b&namespace=ns → {vectors: {id: record}, namespace, usage}
import { invalid } from "../errors.js";
import { recordOut, readUnits, type RecordOut } from "../output.js";
import type { RouteContext } from "../types.js";
import { checkId, LIMITS, namespaceOf } from "../validate.js";

export function fetchVectors({ req, index, store }: RouteContext) {
  const ids = req.query.getAll("ids");
  if (ids.length === 0) throw invalid("ids is required: name at least one id, as ?ids=a&ids=b");
  if (ids.length > LIMITS.idsPerRequest) throw invalid(`ids has ${ids.length} ids; the maximum is ${LIMITS.idsPerRequest} per request`);
  ids.forEach((id, i) => checkId(id, `Id at position ${i}`));
  const raw = req.query.get("namespace");
  const namespace = namespaceOf(raw);
  const vectors: Record<string, RecordOut> = {};
  for (const id of ids) {
    const r = store.get(index.space, namespace, id);
    if (r) vectors[id] = recordOut(r, true, true);
  }
  return { vectors, namespace, usage: { readUnits: readUnits(ids.length) } };
}
