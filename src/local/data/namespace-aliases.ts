// Namespace aliases (API version 2026-07): /namespace-aliases (list, create) and /namespace-aliases/{alias}
// (describe, repoint, delete), and what an alias does to the other routes. Reads through an alias are served by its
// target and name the target; writes to an alias name are refused — 400 WRITE_TO_ALIAS (vector delete / update),
// 409 NAME_IN_USE_BY_ALIAS (upserts, namespace create), 412 (document delete / update); the namespace operations on
// an alias name are 400 NAMESPACE_OPERATION_ON_ALIAS, and a namespace an alias targets cannot be deleted (400
// NAMESPACE_TARGETED_BY_ALIAS). Aliases and namespaces share one space of names.
import { DataPlaneError, GRPC, quote } from "./errors.js";
import type { DataPlaneRequest, RouteContext } from "./types.js";
import { DEFAULT_NAMESPACE_ALIAS, field, parseBody, type JsonObject } from "./validate.js";
import { namespaceExists } from "./routes/namespaces.js";
import type { NamespaceAlias, NamespaceAliases } from "../storage/namespace-aliases.js";
import { aliasListToken, readAliasListToken, type AliasListing } from "./alias-list-token.js";

/** Printable ASCII without space and / ? # % & = \ ; + (the spec's pattern), 1–512 characters. */
const ALIAS_NAME = /^[\x21\x22\x24\x27-\x2A\x2C-\x2E\x30-\x3A\x3C\x3E\x40-\x5B\x5D-\x7E]{1,512}$/;
const MAX_NAMESPACE = 512;
const LIST_PARAMS = ["limit", "paginationToken", "prefix", "target_namespace"];

function refused(status: 400 | 404 | 409 | 412, reason: string, message: string, metadata?: Record<string, string>): DataPlaneError {
  const code = status === 404 ? GRPC.NOT_FOUND : status === 409 ? GRPC.ALREADY_EXISTS : status === 412 ? GRPC.FAILED_PRECONDITION : GRPC.INVALID_ARGUMENT;
  return new DataPlaneError(status, code, message, [
    { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason, domain: "pinecone.io", ...(metadata ? { metadata } : {}) },
  ]);
}

const shown = (namespace: string) => (namespace === "" ? DEFAULT_NAMESPACE_ALIAS : namespace);
const stored = (namespace: string) => (namespace === DEFAULT_NAMESPACE_ALIAS ? "" : namespace);

function described(alias: NamespaceAlias) {
  return { name: alias.name, target_namespace: shown(alias.target), created_at: alias.createdAt, updated_at: alias.updatedAt };
}

function aliasesOf(ctx: RouteContext) {
  const aliases = ctx.extras?.aliases;
  if (!aliases) throw new DataPlaneError(501, GRPC.UNIMPLEMENTED, "Namespace aliases are not available here");
  if (ctx.req.apiVersion !== "2026-07") {
    throw refused(400, "API_VERSION_TOO_OLD", "Namespace aliases need API version 2026-07 or later: send the header X-Pinecone-Api-Version: 2026-07.");
  }
  if (ctx.index.kind === "pod") throw refused(400, "INVALID_ARGUMENT", "Namespace aliases are not supported for pod-based indexes.");
  return aliases;
}

function checkAliasName(name: string): void {
  if (!ALIAS_NAME.test(name) || name === DEFAULT_NAMESPACE_ALIAS || name === "." || name === "..") {
    throw refused(
      400,
      "ALIAS_NAME_INVALID",
      `Alias name ${quote(name)} is invalid: it must be 1-512 characters of printable ASCII without space or / ? # % & = \\ ; +, and not __default__, . or ..`,
    );
  }
}

/** The target a create or repoint names, checked: a possible namespace name, existing, and not an alias. */
function checkTarget(ctx: RouteContext, raw: unknown): string {
  if (raw === undefined || raw === null || raw === "") throw refused(400, "TARGET_NAMESPACE_REQUIRED", "target_namespace is required: the namespace the alias resolves to.");
  if (typeof raw !== "string") throw refused(400, "NAMESPACE_INVALID", "target_namespace must be a string.");
  if (raw.length > MAX_NAMESPACE) throw refused(400, "NAMESPACE_TOO_LONG", `target_namespace is ${raw.length} characters long; the maximum is ${MAX_NAMESPACE}.`);
  if (!/^[\x01-\x7F]+$/.test(raw)) throw refused(400, "NAMESPACE_INVALID", `target_namespace ${quote(raw)} is not a possible namespace name: it must be ASCII without NUL.`);
  if (ctx.extras?.aliases?.get(ctx.index.space, raw)) throw refused(400, "TARGET_IS_ALIAS", `target_namespace ${quote(raw)} is an alias; an alias must resolve to a namespace.`);
  const target = stored(raw);
  if (!namespaceExists(ctx, target)) throw refused(400, "TARGET_NAMESPACE_NOT_FOUND", `target_namespace ${quote(raw)} is not a namespace of index ${ctx.index.name}.`);
  return target;
}

/**
 * The listing a GET /namespace-aliases asks for: its filters checked, or carried by its pagination token — where the
 * request repeats a filter it must be the token's, and it may not add one the listing did not have.
 */
function listingOf(ctx: RouteContext): { listing: AliasListing; after?: string } {
  const query = ctx.req.query;
  const prefix = query.get("prefix");
  if (prefix !== null) {
    if (prefix.length > MAX_NAMESPACE) throw refused(400, "PREFIX_TOO_LONG", `prefix is ${prefix.length} characters long; the maximum is ${MAX_NAMESPACE}.`);
    if (prefix.includes("\0")) throw refused(400, "PREFIX_MUST_NOT_CONTAIN_NULL_CHARACTER", "prefix must not contain the NUL character.");
    if (!/^[\x01-\x7F]*$/.test(prefix)) throw refused(400, "PREFIX_MUST_BE_ASCII", `prefix ${quote(prefix)} must be ASCII.`);
  }
  const rawTarget = query.get("target_namespace");
  if (rawTarget === "") throw refused(400, "TARGET_FILTER_EMPTY", "target_namespace is present but empty.");
  const target = rawTarget === null ? null : stored(rawTarget);
  const token = query.get("paginationToken");
  if (token === null || token === "") return { listing: { index: ctx.index.name, prefix: prefix ?? "", target } };
  const carried = readAliasListToken(token, ctx.index.name);
  if (!carried) throw refused(400, "INVALID_PAGINATION_TOKEN", `paginationToken is malformed or from another listing than the namespace aliases of index ${ctx.index.name}.`);
  const { listing } = carried;
  if (prefix !== null && prefix !== listing.prefix) {
    if (listing.prefix === "") throw refused(400, "LIST_INVALID_TOKEN_WITH_NEW_PREFIX", `prefix ${quote(prefix)} was not part of the listing this paginationToken continues (it had no prefix); start a new listing without the token to filter by it.`);
    throw refused(400, "LIST_INVALID_TOKEN_WITH_PREFIX", `prefix ${quote(prefix)} disagrees with the listing this paginationToken continues (prefix ${quote(listing.prefix)}); repeat the same prefix or leave it out.`);
  }
  if (target !== null && target !== listing.target) {
    if (listing.target === null) throw refused(400, "LIST_INVALID_TOKEN_WITH_NEW_TARGET", `target_namespace ${quote(rawTarget!)} was not part of the listing this paginationToken continues (it had no target filter); start a new listing without the token to filter by it.`);
    throw refused(400, "LIST_INVALID_TOKEN_WITH_TARGET", `target_namespace ${quote(rawTarget!)} disagrees with the listing this paginationToken continues (target_namespace ${quote(shown(listing.target))}); repeat the same target or leave it out.`);
  }
  return carried;
}

/** One page of a listing, in name order (the store's: bytes), with the token for the next when more remain. */
function listAliases(ctx: RouteContext, aliases: NamespaceAliases) {
  const query = ctx.req.query;
  const unknown = [...query.keys()].find((k) => !LIST_PARAMS.includes(k));
  if (unknown !== undefined) throw refused(400, "INVALID_ARGUMENT", `Unknown query parameter ${quote(unknown)}; the parameters are ${LIST_PARAMS.join(", ")}.`);
  const rawLimit = query.get("limit");
  const limit = rawLimit === null || rawLimit === "" ? 100 : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw refused(400, "LIST_INVALID_LIMIT", `limit must be an integer from 1 to 100 (got ${quote(rawLimit ?? "")}).`);
  const { listing, after } = listingOf(ctx);
  const matching = aliases.list(ctx.index.space).filter((a) => a.name.startsWith(listing.prefix) && (listing.target === null || a.target === listing.target));
  const rest = after === undefined ? matching : matching.filter((a) => Buffer.compare(Buffer.from(a.name), Buffer.from(after)) > 0);
  const items = rest.slice(0, limit);
  const next = rest.length > limit ? aliasListToken(listing, items[items.length - 1].name) : undefined;
  return { namespace_aliases: items.map(described), ...(next ? { pagination: { next } } : {}), total_count: matching.length };
}

export async function namespaceAliasesRoute(ctx: RouteContext, encodedName: string | undefined): Promise<unknown> {
  const aliases = aliasesOf(ctx);
  const { req, index } = ctx;
  const method = req.method.toUpperCase();
  if (encodedName === undefined) {
    if (method === "GET") {
      return listAliases(ctx, aliases);
    }
    if (method !== "POST") throw new DataPlaneError(405, GRPC.UNIMPLEMENTED, `Method ${req.method} is not allowed on /namespace-aliases; use GET or POST`);
    const body = parseBody(req.body);
    const name = field(body, "name");
    if (typeof name !== "string") throw refused(400, "ALIAS_NAME_INVALID", "name is required: the alias name, a string.");
    checkAliasName(name);
    const existing = aliases.get(index.space, name);
    if (existing) {
      throw refused(409, "ALIAS_ALREADY_EXISTS", `Alias ${quote(name)} already exists (it resolves to ${quote(shown(existing.target))}).`, {
        target_namespace: shown(existing.target),
      });
    }
    if (namespaceExists(ctx, name)) throw refused(409, "NAME_IN_USE_BY_NAMESPACE", `${quote(name)} is the name of a namespace; an alias cannot take it.`);
    const target = checkTarget(ctx, field(body, "target_namespace"));
    const now = new Date().toISOString();
    const alias: NamespaceAlias = { name, target, createdAt: now, updatedAt: now };
    await aliases.put(index.space, alias);
    return described(alias);
  }
  let name: string;
  try {
    name = decodeURIComponent(encodedName);
  } catch {
    throw refused(400, "ALIAS_NAME_INVALID", "The alias name in the path is not valid percent-encoding.");
  }
  checkAliasName(name);
  const alias = aliases.get(index.space, name);
  if (!alias && ["GET", "PATCH", "DELETE"].includes(method)) throw new DataPlaneError(404, GRPC.NOT_FOUND, `Alias ${quote(name)} not found in index ${index.name}.`);
  if (method === "GET") return described(alias!);
  if (method === "DELETE") {
    await aliases.remove(index.space, name);
    return {};
  }
  if (method === "PATCH") {
    const body = parseBody(req.body);
    const target = checkTarget(ctx, field(body, "target_namespace"));
    const repointed: NamespaceAlias = { ...alias!, target, updatedAt: new Date().toISOString() };
    await aliases.put(index.space, repointed);
    return described(repointed);
  }
  throw new DataPlaneError(405, GRPC.UNIMPLEMENTED, `Method ${req.method} is not allowed on /namespace-aliases/{alias_name}; use GET, PATCH or DELETE`);
}

/** Where a route names its namespace, and whether it reads or writes through it. */
type Use = { kind: "read" | "write-400" | "write-409" | "write-412" | "namespace-op"; where: "body" | "query" | "path"; bodyField?: string };

const PATH_NAMESPACE = /^\/(records\/namespaces|namespaces)\/([^/]+)(\/.*)?$/;

function useOf(method: string, path: string): Use | undefined {
  const post = method === "POST";
  if (post && (path === "/query" || path === "/vectors/fetch_by_metadata")) return { kind: "read", where: "body", bodyField: "namespace" };
  if (method === "GET" && (path === "/vectors/fetch" || path === "/vectors/list")) return { kind: "read", where: "query" };
  if (post && path === "/vectors/upsert") return { kind: "write-409", where: "body", bodyField: "namespace" };
  if (post && (path === "/vectors/delete" || path === "/vectors/update")) return { kind: "write-400", where: "body", bodyField: "namespace" };
  if (post && path === "/namespaces") return { kind: "write-409", where: "body", bodyField: "name" };
  const m = PATH_NAMESPACE.exec(path);
  if (!m) return undefined;
  const rest = m[3] ?? "";
  if (m[1] === "records/namespaces") return { kind: rest === "/upsert" ? "write-409" : "read", where: "path" };
  if (rest === "") return { kind: "namespace-op", where: "path" };
  if (rest === "/documents/upsert") return { kind: "write-409", where: "path" };
  if (rest === "/documents/delete" || rest === "/documents/update") return { kind: "write-412", where: "path" };
  if (rest.startsWith("/documents/")) return { kind: "read", where: "path" };
  return undefined;
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined; // the route itself answers the bad encoding
  }
}

/**
 * The request as the route should see it: a read through an alias rewritten to name the alias's target; a write
 * to an alias name, or a namespace operation on one, refused. Unchanged when the index has no aliases.
 */
export function throughAliases(ctx: RouteContext, path: string): DataPlaneRequest {
  const { req, index, extras } = ctx;
  const aliases = extras?.aliases;
  if (!aliases?.any(index.space)) return req;
  const method = req.method.toUpperCase();
  const use = useOf(method, path);
  if (!use) return req;
  let body: JsonObject | undefined;
  let named: string | undefined;
  if (use.where === "body") {
    try {
      body = parseBody(req.body);
    } catch {
      return req; // the route answers the malformed body
    }
    const v = field(body, use.bodyField!);
    named = typeof v === "string" ? v : undefined;
  } else if (use.where === "query") {
    named = req.query.get("namespace") ?? undefined;
  } else {
    named = decoded(PATH_NAMESPACE.exec(path)![2]);
  }
  if (named === undefined) return req;
  const alias = aliases.get(index.space, named);
  if (!alias) {
    if (use.kind === "namespace-op" && method === "DELETE") {
      const targeting = aliases.list(index.space).filter((a) => a.target === stored(named));
      if (targeting.length > 0) {
        throw refused(
          400,
          "NAMESPACE_TARGETED_BY_ALIAS",
          `Namespace ${quote(named)} is the target of the aliases ${targeting.map((a) => quote(a.name)).join(", ")}; repoint or delete them before deleting it.`,
        );
      }
    }
    return req;
  }
  const target = shown(alias.target);
  switch (use.kind) {
    case "write-400":
      throw refused(400, "WRITE_TO_ALIAS", `${quote(named)} is a namespace alias (of ${quote(target)}); writes must name the namespace itself.`, { target_namespace: target });
    case "write-409":
      throw refused(409, "NAME_IN_USE_BY_ALIAS", `${quote(named)} is the name of a namespace alias (of ${quote(target)}); write to the namespace itself.`, { target_namespace: target });
    case "write-412":
      throw refused(412, "WRITE_TO_ALIAS", `${quote(named)} is a namespace alias (of ${quote(target)}); documents are deleted and updated through the namespace itself.`, { target_namespace: target });
    case "namespace-op":
      throw refused(400, "NAMESPACE_OPERATION_ON_ALIAS", `${quote(named)} is a namespace alias, not a namespace; describe or delete it with /namespace-aliases/${named}.`);
    default:
      break;
  }
  if (use.where === "body") return { ...req, body: Buffer.from(JSON.stringify({ ...body, [use.bodyField!]: target })) };
  if (use.where === "query") {
    const query = new URLSearchParams(req.query);
    query.set("namespace", target);
    return { ...req, query };
  }
  const m = PATH_NAMESPACE.exec(path)!;
  return { ...req, pathname: `/${m[1]}/${encodeURIComponent(target)}${m[3] ?? ""}` };
}
