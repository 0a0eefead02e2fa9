// POST /vectors/delete {ids | deleteAll | filter, namespace} → {}
import { invalid } from "../errors.js";
import { compileFilter } from "../../search/filter.js";
import type { RouteContext } from "../types.js";
import { checkIdList, field, namespaceOf, optionalBoolean, parseBody } from "../validate.js";

export async function deleteVectors({ req, index, store }: RouteContext): Promise<Record<string, never>> {
  const body = parseBody(req.body);
  const namespace = namespaceOf(field(body, "namespace"));
  const rawIds = field(body, "ids");
  const hasIds = rawIds !== undefined && rawIds !== null;
  const deleteAll = optionalBoolean(body, "deleteAll") ?? false;
  const rawFilter = field(body, "filter");
  const hasFilter = rawFilter !== undefined && rawFilter !== null;
  const given = [hasIds, deleteAll, hasFilter].filter(Boolean).length;
  if (given === 0) throw invalid("Specify what to delete: ids, deleteAll: true, or a filter");
  if (given > 1) throw invalid("ids, deleteAll and filter are mutually exclusive; specify exactly one");
  if (hasIds) {
    const ids = checkIdList(rawIds, "ids");
    if (ids.length === 0) throw invalid("ids must hold at least one id");
    await store.deleteIds(index.space, namespace, ids);
  } else if (deleteAll) {
    await store.deleteAll(index.space, namespace);
  } else {
    const filter = compileFilter(rawFilter);
    if (!filter) throw invalid("filter must be an object");
    if (Object.keys(filter.source).length === 0) throw invalid("filter must not be empty; use deleteAll to delete every record");
    await store.deleteMatching(index.space, namespace, filter);
  }
  return {};
}
