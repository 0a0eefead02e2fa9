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
  | "db_data_2026-07.oas.yaml";

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
