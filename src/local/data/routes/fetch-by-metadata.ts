// POST /vectors/fetch_by_metadata {namespace, filter, limit, paginationToken} → {vectors, namespace, usage, pagination?}
import { invalid } from "../errors.js";
import { compileFilter } from "../../search/filter.js";
import { recordOut, readUnits, type RecordOut } from "../output.js";
import type { RouteContext } from "../types.js";
import { describe, field, LIMITS, namespaceOf, optionalString, parseBody } from "../validate.js";

export function fetchByMetadata({ req, index, store }: RouteContext) {
  const body = parseBody(req.body);
  const namespace = namespaceOf(field(body, "namespace"));
  const filter = compileFilter(field(body, "filter"));
  const rawLimit = field(body, "limit");
  let limit = LIMITS.listLimit as number;
  if (rawLimit !== undefined && rawLimit !== null) {
    if (typeof rawLimit !== "number" || !Number.isInteger(rawLimit) || rawLimit < 1 || rawLimit > LIMITS.idsPerRequest) {
      throw invalid(`limit must be an integer from 1 to ${LIMITS.idsPerRequest}, got ${describe(rawLimit)}`);
    }
    limit = rawLimit;
  }
  const token = optionalString(body, "paginationToken");
  if (token !== undefined && token !== "" && !/^[A-Za-z0-9_-]+$/.test(token)) throw invalid("paginationToken is not a token this service issued");
  const after = token ? Buffer.from(token, "base64url") : undefined;
  const vectors: Record<string, RecordOut> = {};
  let count = 0;
  let read = 0;
  let last: Buffer | undefined;
  let more = false;
  const matching = filter ? store.scanMatching(index.space, namespace, filter, { after }) : store.scanFrom(index.space, namespace, { after });
  for (const { position, record } of matching) {
    read++;
    if (count === limit) {
      more = true;
      break;
    }
    vectors[record.id] = recordOut(record, true, true);
    count++;
    last = position;
  }
  return {
    vectors,
    namespace,
    usage: { readUnits: readUnits(read) },
    ...(more && last ? { pagination: { next: last.toString("base64url") } } : {}),
  };
}
