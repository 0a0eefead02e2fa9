// GET /namespaces, POST /namespaces, GET /namespaces/{namespace}, DELETE /namespaces/{namespace}
// Here the default namespace is named "__default__", as the service's namespace API names it. A namespace exists
// while it holds records, or once created by name (POST, serverless only) until it is deleted.
import { DataPlaneError, GRPC, invalid, notFound, quote } from "../errors.js";
import type { RouteContext } from "../types.js";
import type { NamespaceSchema } from "../../storage/declared-namespaces.js";
import { DEFAULT_NAMESPACE_ALIAS, describe, field, LIMITS, namespaceOf, parseBody } from "../validate.js";

const shown = (name: string) => (name === "" ? DEFAULT_NAMESPACE_ALIAS : name);

interface Described { name: string; record_count: number; size_bytes?: number; schema?: NamespaceSchema }

/** Every namespace of the index: those holding records and those created by name. */
function allNamespaces({ index, store, extras }: RouteContext): Map<string, Described> {
  const all = new Map<string, Described>();
  for (const declared of extras?.namespaces?.list(index.space) ?? []) {
    all.set(declared.name, { name: shown(declared.name), record_count: 0, ...(declared.schema ? { schema: declared.schema } : {}) });
  }
  for (const [name, s] of Object.entries(store.spaceStats(index.space).namespaces)) {
    all.set(name, { ...all.get(name), name: shown(name), record_count: s.vectorCount, size_bytes: s.bytes ?? 0 });
  }
  return all;
}

/**
 * A namespace as the request's version describes it: 2026-07 gives record_count and size_bytes as decimal strings
 * (64-bit counts); earlier versions the record count as a number and no size.
 */
function inVersion(ctx: RouteContext, n: Described): Record<string, unknown> {
  const { size_bytes: bytes, ...rest } = n;
  if (ctx.req.apiVersion !== "2026-07") return rest;
  return { ...rest, record_count: String(n.record_count), size_bytes: String(bytes ?? 0) };
}

export function listNamespaces(ctx: RouteContext) {
  const { req } = ctx;
  const prefix = req.query.get("prefix") ?? "";
  const limit = parseLimit(req.query.get("limit"));
  const token = req.query.get("paginationToken");
  const after = token ? Buffer.from(token, "base64url").toString("utf8") : undefined;
  if (token && ctx.req.apiVersion === "2026-07" && (!/^[A-Za-z0-9_-]+$/.test(token) || Buffer.from(after!).toString("base64url") !== token)) {
    throw invalid("paginationToken is malformed: pass the pagination.next of the previous page as it came");
  }
  const all = [...allNamespaces(ctx).values()]
    .filter((n) => n.name.startsWith(prefix))
    .sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
  const rest = after === undefined ? all : all.filter((n) => Buffer.compare(Buffer.from(n.name), Buffer.from(after)) > 0);
  const page = rest.slice(0, limit);
  return {
    namespaces: page.map((n) => inVersion(ctx, n)),
    ...(rest.length > limit ? { pagination: { next: Buffer.from(page[page.length - 1].name).toString("base64url") } } : {}),
    total_count: all.length,
  };
}

/** Whether the index has this namespace ("" is the default namespace): holding records, or created by name. */
export function namespaceExists(ctx: RouteContext, namespace: string): boolean {
  return allNamespaces(ctx).has(namespace);
}

export function describeNamespace(ctx: RouteContext, name: string) {
  return inVersion(ctx, existing(ctx, name));
}

export async function createNamespace(ctx: RouteContext) {
  const { index, extras } = ctx;
  if (!extras?.namespaces) throw new DataPlaneError(501, GRPC.UNIMPLEMENTED, "POST /namespaces is not supported here");
  if (index.kind === "pod") throw invalid("Creating a namespace is not supported for pod-based indexes; a namespace is created by the first upsert into it");
  const body = parseBody(ctx.req.body);
  const unknown = Object.keys(body).find((k) => k !== "name" && k !== "schema");
  if (unknown !== undefined) throw invalid(`Unknown field ${quote(unknown)} in a create-namespace request; the fields are name and schema`);
  const rawName = field(body, "name");
  if (typeof rawName !== "string") throw invalid(`name must be a string, got ${describe(rawName)}`);
  if (rawName === "") throw invalid("name must not be empty; the default namespace always exists as __default__");
  const namespace = namespaceOf(rawName);
  const schema = parseSchema(field(body, "schema"));
  if (allNamespaces(ctx).has(namespace)) {
    throw new DataPlaneError(409, GRPC.ALREADY_EXISTS, `Namespace ${quote(shown(namespace))} already exists`);
  }
  await extras.namespaces.declare(index.space, { name: namespace, ...(schema ? { schema } : {}), createdAt: new Date().toISOString() });
  return inVersion(ctx, { name: shown(namespace), record_count: 0, ...(schema ? { schema } : {}) });
}

export async function deleteNamespace(ctx: RouteContext, name: string) {
  const namespace = namespaceOf(name);
  existing(ctx, name);
  await ctx.store.deleteAll(ctx.index.space, namespace);
  await ctx.extras?.namespaces?.remove(ctx.index.space, namespace);
  return {};
}

function existing(ctx: RouteContext, raw: string): Described {
  const found = allNamespaces(ctx).get(namespaceOf(raw));
  if (!found) throw notFound(`Namespace ${quote(raw)} not found`);
  return found;
}

/** {fields: {name: {filterable: true}}}: stored and described; every field stays filterable here (see docs/tools-in-depth.md). */
function parseSchema(raw: unknown): NamespaceSchema | undefined {
  if (raw === undefined || raw === null) return undefined;
  const fields = typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>).fields : undefined;
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
    throw invalid('schema must be an object {"fields": {"<metadata field>": {"filterable": true}}}');
  }
  const extra = Object.keys(raw as object).find((k) => k !== "fields");
  if (extra !== undefined) throw invalid(`Unknown field ${quote(extra)} in schema; it holds only fields`);
  const out: NamespaceSchema = { fields: {} };
  for (const [key, value] of Object.entries(fields)) {
    if (key === "" || key.startsWith("$")) throw invalid(`schema.fields: ${quote(key)} is not a valid metadata field name`);
    const filterable = typeof value === "object" && value !== null ? (value as Record<string, unknown>).filterable : undefined;
    if (filterable !== true || Object.keys(value as object).some((k) => k !== "filterable")) {
      throw invalid(`schema.fields.${key} must be {"filterable": true} (only true is supported)`);
    }
    out.fields[key] = { filterable: true };
  }
  return out;
}

function parseLimit(raw: string | null): number {
  if (raw === null || raw === "") return LIMITS.listLimit;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw invalid(`limit must be a positive integer, got '${raw.slice(0, 32)}'`);
  return Number(raw);
}
