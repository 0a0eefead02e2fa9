// GET /namespaces, GET /namespaces/{namespace}, DELETE /namespaces/{namespace}
// Here the default namespace is named "__default__", as the service's namespace API names it.
import { invalid, notFound, quote } from "../errors.js";
import type { RouteContext } from "../types.js";
import { DEFAULT_NAMESPACE_ALIAS, LIMITS, namespaceOf } from "../validate.js";

const shown = (name: string) => (name === "" ? DEFAULT_NAMESPACE_ALIAS : name);

export function listNamespaces({ req, index, store }: RouteContext) {
  const prefix = req.query.get("prefix") ?? "";
  const limit = parseLimit(req.query.get("limit"));
  const token = req.query.get("paginationToken");
  const after = token ? Buffer.from(token, "base64url").toString("utf8") : undefined;
  const stats = store.spaceStats(index.space);
  const all = Object.entries(stats.namespaces)
    .map(([name, s]) => ({ name: shown(name), record_count: s.vectorCount }))
    .filter((n) => n.name.startsWith(prefix))
    .sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
  const rest = after === undefined ? all : all.filter((n) => Buffer.compare(Buffer.from(n.name), Buffer.from(after)) > 0);
  const page = rest.slice(0, limit);
  return {
    namespaces: page,
    ...(rest.length > limit ? { pagination: { next: Buffer.from(page[page.length - 1].name).toString("base64url") } } : {}),
    total_count: all.length,
  };
}

export function describeNamespace(ctx: RouteContext, name: string) {
  const { namespace, count } = existing(ctx, name);
  return { name: shown(namespace), record_count: count };
}

export async function deleteNamespace(ctx: RouteContext, name: string) {
  const { namespace } = existing(ctx, name);
  await ctx.store.deleteAll(ctx.index.space, namespace);
  return {};
}

function existing({ index, store }: RouteContext, raw: string): { namespace: string; count: number } {
  const namespace = namespaceOf(raw);
  const entry = store.spaceStats(index.space).namespaces[namespace];
  if (!entry) throw notFound(`Namespace ${quote(raw)} not found`);
  return { namespace, count: entry.vectorCount };
}

function parseLimit(raw: string | null): number {
  if (raw === null || raw === "") return LIMITS.listLimit;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw invalid(`limit must be a positive integer, got '${raw.slice(0, 32)}'`);
  return Number(raw);
}
