// GET /vectors/list?prefix=&limit=&paginationToken=&namespace= → {vectors: [{id}], pagination?: {next}, namespace, usage}
// Ids come in byte order of their UTF-8 form; the token is the opaque position after the last id returned.
import { invalid, UNSUPPORTED } from "../errors.js";
import type { RouteContext } from "../types.js";
import { LIMITS, namespaceOf } from "../validate.js";

export function listVectors({ req, index, store }: RouteContext) {
  if (index.kind === "pod") throw invalid(UNSUPPORTED.listOnPod);
  const namespace = namespaceOf(req.query.get("namespace"));
  const prefix = req.query.get("prefix") ?? undefined;
  const limit = parseLimit(req.query.get("limit"));
  const token = req.query.get("paginationToken");
  let after: Buffer | undefined;
  if (token !== null && token !== "") {
    if (!/^[A-Za-z0-9_-]+$/.test(token)) throw invalid("paginationToken is not a token this service issued");
    after = Buffer.from(token, "base64url");
  }
  const page = store.listIds(index.space, namespace, { prefix, after, limit });
  return {
    vectors: page.ids.map((id) => ({ id })),
    ...(page.next ? { pagination: { next: page.next.toString("base64url") } } : {}),
    namespace,
    usage: { readUnits: 1 },
  };
}

function parseLimit(raw: string | null): number {
  if (raw === null || raw === "") return LIMITS.listLimit;
  if (!/^\d+$/.test(raw)) throw invalid(`limit must be an integer from 1 to ${LIMITS.listLimit}, got '${raw.slice(0, 32)}'`);
  const n = Number(raw);
  if (n < 1 || n > LIMITS.listLimit) throw invalid(`limit must be from 1 to ${LIMITS.listLimit}, got ${raw}`);
  return n;
}
