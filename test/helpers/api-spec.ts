// Validates responses against the published OpenAPI specs in ../shared/api-spec (not part of the project:
// when the folder is absent, spec tests skip and say why). Fixes the quirks the specs' README lists
// before handing the schemas to ajv.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { parse } from "yaml";
import { repoRoot } from "./local-service.js";

// VECDB_SPEC_DIR: where the specs are when the checkout is not beside them (e.g. a git worktree elsewhere).
const specDir = process.env.VECDB_SPEC_DIR ?? resolve(repoRoot, "../shared/api-spec");
export const specsAvailable = existsSync(join(specDir, "db_control_2026-04.oas.yaml"));
export const specsMissingReason = `the API specs are not at ${specDir} (they live outside the project; spec validation is skipped)`;

export type SpecFile =
  | "control_2024-07.oas.yaml"
  | "data_2024-07.oas.yaml"
  | "db_control_2026-04.oas.yaml"
  | "db_data_2026-04.oas.yaml"
  | "inference_2026-04.oas.yaml"
  | "db_control_2026-07.oas.yaml"
  | "db_data_2026-07.oas.yaml"
  | "inference_2026-07.oas.yaml";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Rewrites one schema node (recursively) into standard JSON Schema as ajv reads it. */
export function fixQuirks(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(fixQuirks);
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "discriminator" || k === "example" || k === "examples") continue;
    out[k] = fixQuirks(v);
  }
  // A oneOf with a discriminator: the service picks the branch by the property's value, so branches that would all
  // match (e.g. read_capacity's OnDemand, whose only rule is a string `mode`, and Dedicated) are not ambiguous.
  const discriminator = node.discriminator as Json | undefined;
  if (isObject(discriminator) && isObject(discriminator.mapping) && Array.isArray(out.oneOf)) {
    const property = String(discriminator.propertyName);
    const mapping = discriminator.mapping as Record<string, string>;
    delete out.oneOf;
    out.type = "object";
    out.required = [property];
    out.properties = { [property]: { enum: Object.keys(mapping) } };
    out.allOf = Object.entries(mapping).map(([value, ref]) => ({ if: { properties: { [property]: { const: value } } }, then: { $ref: ref } }));
  }
  // Array limits written as string limits.
  if (out.type === "array") {
    if ("minLength" in out) {
      out.minItems = out.minLength;
      delete out.minLength;
    }
    if ("maxLength" in out) {
      out.maxItems = out.maxLength;
      delete out.maxLength;
    }
  }
  // x-enum (2025-10 on) is what enum used to be.
  if (Array.isArray(out["x-enum"]) && !("enum" in out)) {
    out.enum = out["x-enum"];
    delete out["x-enum"];
  }
  // `nullable` beside allOf / $ref with no `type` (2026-07): ajv wants a type; say "this, or null" instead.
  if (out.nullable === true && out.type === undefined) {
    const { nullable: _nullable, ...rest } = out;
    return { anyOf: [rest, { type: "null" }] };
  }
  // Defaults written as strings ('false', '100').
  if (typeof out.default === "string") {
    if (out.type === "boolean") out.default = out.default === "true";
    else if (out.type === "integer" || out.type === "number") out.default = Number(out.default);
  }
  // `required` placed inside a property: move it up to the object that owns the property.
  if (isObject(out.properties)) {
    const required = new Set<string>(Array.isArray(out.required) ? (out.required as string[]) : []);
    for (const [name, prop] of Object.entries(out.properties)) {
      if (isObject(prop) && Array.isArray(prop.required) && prop.type !== "object" && !isObject(prop.properties)) {
        delete prop.required;
        required.add(name);
      }
    }
    if (required.size > 0) out.required = [...required];
  }
  return out;
}

const cache = new Map<SpecFile, { doc: Json; ajv: Ajv }>();

function load(file: SpecFile): { doc: Json; ajv: Ajv } {
  const hit = cache.get(file);
  if (hit) return hit;
  const doc = parse(readFileSync(join(specDir, file), "utf8")) as Json;
  const ajv = new Ajv({ strict: false, allErrors: true });
  const addFormats = addFormatsModule as unknown as (a: Ajv) => void;
  addFormats(ajv);
  for (const f of ["int32", "int64", "float", "double"]) ajv.addFormat(f, true);
  ajv.addSchema({ components: fixQuirks(doc.components) }, file);
  const entry = { doc, ajv };
  cache.set(file, entry);
  return entry;
}

export function schemaValidator(file: SpecFile, schemaName: string): ValidateFunction {
  const { ajv } = load(file);
  const v = ajv.getSchema(`${file}#/components/schemas/${schemaName}`);
  if (!v) throw new Error(`no schema ${schemaName} in ${file}`);
  return v;
}

/** Whether the spec lists this status for the operation. */
export function hasResponse(file: SpecFile, pathTemplate: string, method: string, status: number): boolean {
  const op = (load(file).doc.paths as Json)?.[pathTemplate] as Json | undefined;
  const responses = (op?.[method.toLowerCase()] as Json | undefined)?.responses as Json | undefined;
  return responses?.[String(status)] !== undefined;
}

/**
 * Validates a response body against the spec's response schema for (path template, method, status).
 * Returns the list of problems (empty when valid).
 */
export function validateResponse(file: SpecFile, pathTemplate: string, method: string, status: number, body: unknown): string[] {
  const { doc, ajv } = load(file);
  const op = (doc.paths as Json)?.[pathTemplate] as Json | undefined;
  const responses = (op?.[method.toLowerCase()] as Json | undefined)?.responses as Json | undefined;
  const response = responses?.[String(status)] as Json | undefined;
  if (!response) return [`${file} has no response ${status} for ${method} ${pathTemplate}`];
  const content = response.content as Json | undefined;
  const schema = (content?.["application/json"] as Json | undefined)?.schema;
  if (!schema) return body === undefined || body === "" ? [] : [`${file} declares no JSON body for ${status} ${method} ${pathTemplate}`];
  const validate = ajv.compile({ $ref: refInto(file, schema as Json) });
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
}

function refInto(file: SpecFile, schema: Json): string {
  if (typeof schema.$ref === "string") return `${file}${schema.$ref}`;
  // An inline response schema: register it once under a synthetic id.
  const { ajv } = load(file);
  const id = `${file}#inline-${JSON.stringify(schema).length}-${hash(JSON.stringify(schema))}`;
  const key = id.replace("#", "/");
  if (!ajv.getSchema(key)) ajv.addSchema(fixQuirks(rebase(file, schema)) as Json, key);
  return key;
}

function rebase(file: SpecFile, node: unknown): unknown {
  if (Array.isArray(node)) return node.map((n) => rebase(file, n));
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === "$ref" && typeof v === "string" && v.startsWith("#") ? `${file}${v}` : rebase(file, v);
  return out;
}

function hash(s: string): string {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return (h >>> 0).toString(16);
}

/** One request as a client sent it. */
export interface SentRequest {
  method: string;
  /** Path and query, e.g. /indexes/docs or /vectors/fetch?ids=a&namespace=x. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const compiled = new Map<string, ValidateFunction>();

type Operation = { file: SpecFile; template: string; op: Json; pathParams: Record<string, string> };

/** The spec operation a request is for: the first file (of `files`) with a path template matching it (literal segments win). */
function operationOf(files: readonly SpecFile[], method: string, pathname: string): Operation | undefined {
  for (const file of files) {
    const paths = (load(file).doc.paths ?? {}) as Json;
    const candidates = Object.keys(paths)
      .map((template) => {
        const names: string[] = [];
        const pattern = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{([^}]+)\}/g, (_, n: string) => (names.push(n), "([^/]+)"));
        const m = new RegExp(`^${pattern}$`).exec(pathname);
        return m ? { template, names, values: m.slice(1), literal: template.replace(/\{[^}]+\}/g, "").length } : undefined;
      })
      .filter((c) => c !== undefined)
      .sort((a, b) => b.literal - a.literal);
    for (const c of candidates) {
      const op = (paths[c.template] as Json)[method.toLowerCase()] as Json | undefined;
      if (!op) continue;
      const pathParams = Object.fromEntries(c.names.map((n, i) => [n, decodeURIComponent(c.values[i])]));
      return { file, template: c.template, op: { ...op, parameters: [...(((paths[c.template] as Json).parameters as Json[]) ?? []), ...((op.parameters as Json[]) ?? [])] }, pathParams };
    }
  }
  return undefined;
}

/** A parameter's value as its schema types it (query strings and headers are text). */
function typed(schema: Json | undefined, raw: string[]): unknown {
  const type = schema?.type;
  const one = (s: string) => (type === "integer" || type === "number" ? Number(s) : type === "boolean" ? s === "true" ? true : s === "false" ? false : s : s);
  if (type === "array") return raw.map((s) => (isObject(schema?.items) && (schema.items as Json).type === "integer" ? Number(s) : s));
  return one(raw[0]);
}

/**
 * Checks a request against the spec: a route with this method exists; every path, query and header parameter the
 * operation declares is valid (types, patterns, enums, bounds), required ones are present, no undeclared query
 * parameter is sent; the version header names the spec's version; the JSON (or NDJSON) body matches its schema.
 * Returns the problems (empty when valid).
 */
export function validateRequest(files: readonly SpecFile[], request: SentRequest): string[] {
  const url = new URL(request.path, "http://x");
  const found = operationOf(files, request.method, url.pathname);
  const what = `${request.method} ${url.pathname}`;
  if (!found) return [`${what}: no such operation in ${files.join(", ")}`];
  const { file, template, op, pathParams } = found;
  const { ajv, doc } = load(file);
  const problems: string[] = [];
  const check = (where: string, schema: unknown, value: unknown) => {
    if (!isObject(schema)) return;
    const key = `${file} ${JSON.stringify(schema)}`;
    // An inline schema is compiled as it is, its $refs made absolute (it has no id of its own to resolve them from).
    const validate = compiled.get(key) ?? ajv.compile(typeof schema.$ref === "string" ? { $ref: `${file}${schema.$ref}` } : (fixQuirks(rebase(file, schema)) as Json));
    compiled.set(key, validate);
    if (!validate(value)) problems.push(...(validate.errors ?? []).map((e) => `${what} ${where}${e.instancePath} ${e.message}`));
  };
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]));
  const declared = new Set<string>();
  for (const p of (op.parameters as Json[]) ?? []) {
    const name = String(p.name);
    const schema = p.schema as Json | undefined;
    if (p.in === "query") {
      declared.add(name);
      const values = url.searchParams.getAll(name);
      if (values.length === 0) {
        if (p.required === true) problems.push(`${what}: query parameter ${name} is required`);
        continue;
      }
      check(`query ${name}`, schema, typed(schema, values));
    } else if (p.in === "path") {
      check(`path ${name}`, schema, pathParams[name]);
    } else if (p.in === "header") {
      const value = headers[name.toLowerCase()];
      if (value === undefined) {
        if (p.required === true) problems.push(`${what}: header ${name} is required`);
        continue;
      }
      check(`header ${name}`, schema, value);
      if (name.toLowerCase() === "x-pinecone-api-version" && value !== (doc.info as Json).version) {
        problems.push(`${what}: header ${name} is ${value}, the spec is ${(doc.info as Json).version}`);
      }
    }
  }
  for (const name of new Set(url.searchParams.keys())) if (!declared.has(name)) problems.push(`${what}: query parameter ${name} is not in the spec (${template})`);
  const content = (op.requestBody as Json | undefined)?.content as Json | undefined;
  const required = (op.requestBody as Json | undefined)?.required === true;
  if (!content) {
    if (request.body) problems.push(`${what}: sends a body the spec does not declare`);
    return problems;
  }
  if (request.body === undefined || request.body === "") {
    if (required) problems.push(`${what}: the body is required`);
    return problems;
  }
  const type = (headers["content-type"] ?? "").split(";")[0].trim();
  const media = content[type] as Json | undefined;
  if (!media) return [...problems, `${what}: Content-Type ${type} is not one of ${Object.keys(content).join(", ")}`];
  const body = type === "application/x-ndjson" ? request.body.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as unknown) : (JSON.parse(request.body) as unknown);
  check("body", media.schema, body);
  return problems;
}
