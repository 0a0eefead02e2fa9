// PATCH /indexes/{name} under API version 2026-07: {deployment?: {replicas?, pod_type?}, schema?: {fields: {<the
// semantic_text field>: {type, model?, read_parameters?, write_parameters?}}}, read_capacity?, tags?,
// deletion_protection?} → the same changes the 2026-04 request makes (spec.pod, embed), plus read capacity.
import { invalid, unprocessable } from "./errors.js";
import { int, isObject, obj, str } from "./json-fields.js";
import { parseDeletionProtection, parseTags, POD_TYPE, type ConfigureInput } from "./validate.js";

type Obj = Record<string, unknown>;

function onlyFields(o: Obj, known: readonly string[], where: string): void {
  const key = Object.keys(o).find((k) => !known.includes(k) && o[k] !== undefined);
  if (key === undefined) return;
  throw unprocessable(`${where === "" ? "" : `${where}: `}unknown field \`${key}\`, expected one of ${known.map((k) => `\`${k}\``).join(", ")}`);
}

/** read_capacity as a patch: OnDemand, or Dedicated with any of node_type and (scaling: Manual + manual). */
function parseReadCapacityPatch(rc: Obj): NonNullable<ConfigureInput["readCapacity"]> {
  onlyFields(rc, ["mode", "dedicated"], "read_capacity");
  const mode = str(rc, "mode", "read_capacity.mode", true)!;
  if (mode === "OnDemand") {
    if (rc.dedicated !== undefined && rc.dedicated !== null) throw invalid("read_capacity.dedicated must not be set when mode is OnDemand.");
    return { mode };
  }
  if (mode !== "Dedicated") throw invalid(`read_capacity.mode must be "OnDemand" or "Dedicated" (got ${JSON.stringify(mode)}).`);
  const dedicated = obj(rc, "dedicated", "read_capacity.dedicated", true)!;
  onlyFields(dedicated, ["node_type", "scaling", "manual"], "read_capacity.dedicated");
  const nodeType = str(dedicated, "node_type", "read_capacity.dedicated.node_type", false);
  if (nodeType !== undefined && nodeType !== "b1" && nodeType !== "t1") {
    throw invalid(`read_capacity.dedicated.node_type must be "b1" or "t1" (got ${JSON.stringify(nodeType)}).`);
  }
  const scaling = str(dedicated, "scaling", "read_capacity.dedicated.scaling", false);
  const manual = obj(dedicated, "manual", "read_capacity.dedicated.manual", false);
  if ((scaling === undefined) !== (manual === undefined)) {
    throw invalid("read_capacity.dedicated.scaling and read_capacity.dedicated.manual go together: send scaling: Manual with manual, or neither.");
  }
  if (scaling !== undefined && scaling !== "Manual") throw invalid(`read_capacity.dedicated.scaling must be "Manual" (got ${JSON.stringify(scaling)}).`);
  const patch: NonNullable<ConfigureInput["readCapacity"]> = { mode, ...(nodeType !== undefined ? { nodeType } : {}) };
  if (manual) {
    onlyFields(manual, ["replicas", "shards"], "read_capacity.dedicated.manual");
    const replicas = int(manual, "replicas", "read_capacity.dedicated.manual.replicas");
    const shards = int(manual, "shards", "read_capacity.dedicated.manual.shards");
    if (replicas !== undefined && replicas < 0) throw invalid(`read_capacity.dedicated.manual.replicas must be at least 0 (got ${replicas}).`);
    if (shards !== undefined && shards < 1) throw invalid(`read_capacity.dedicated.manual.shards must be at least 1 (got ${shards}).`);
    patch.manual = { ...(replicas !== undefined ? { replicas } : {}), ...(shards !== undefined ? { shards } : {}) };
  }
  return patch;
}

/** schema: one semantic_text field's read / write parameters (the model cannot change). */
function parseSchemaPatch(schema: Obj): NonNullable<ConfigureInput["embed"]> & { field: string } {
  onlyFields(schema, ["fields"], "schema");
  const fields = obj(schema, "fields", "schema.fields", true)!;
  const names = Object.keys(fields);
  if (names.length !== 1) throw invalid(`schema.fields must name exactly one semantic_text field to update (got ${names.length}).`);
  const field = names[0];
  const at = `schema.fields.${field}`;
  const patch = fields[field];
  if (!isObject(patch)) throw unprocessable(`${at}: invalid type, expected an object`);
  onlyFields(patch, ["type", "model", "write_parameters", "read_parameters"], at);
  const type = str(patch, "type", `${at}.type`, true)!;
  if (type !== "semantic_text") throw invalid(`${at}.type must be semantic_text: only semantic_text fields can be updated after creation (got ${JSON.stringify(type)}).`);
  const model = str(patch, "model", `${at}.model`, false);
  const out: NonNullable<ConfigureInput["embed"]> & { field: string } = { field, ...(model !== undefined ? { model } : {}) };
  for (const key of ["read_parameters", "write_parameters"] as const) {
    const v = obj(patch, key, `${at}.${key}`, false);
    if (v) out[key] = v;
  }
  return out;
}

export function parseConfigure2026_07(body: Obj): ConfigureInput {
  onlyFields(body, ["deployment", "schema", "read_capacity", "tags", "deletion_protection"], "");
  const out: ConfigureInput = {};
  const deployment = obj(body, "deployment", "deployment", false);
  if (deployment) {
    if ("deployment_type" in deployment) throw invalid("deployment.deployment_type cannot be changed (and is not accepted here): send only replicas and / or pod_type.");
    onlyFields(deployment, ["replicas", "pod_type"], "deployment");
    const replicas = int(deployment, "replicas", "deployment.replicas");
    if (replicas !== undefined && replicas < 1) throw invalid(`deployment.replicas must be at least 1 (got ${replicas}).`);
    const podType = str(deployment, "pod_type", "deployment.pod_type", false);
    if (podType !== undefined && !POD_TYPE.test(podType)) {
      throw invalid(`deployment.pod_type ${JSON.stringify(podType)} is invalid: it must be one of s1, p1 or p2 followed by '.' and one of x1, x2, x4 or x8 (e.g. "p1.x1").`);
    }
    out.pod = { ...(replicas !== undefined ? { replicas } : {}), ...(podType !== undefined ? { pod_type: podType } : {}) };
  }
  const schema = obj(body, "schema", "schema", false);
  if (schema) {
    const { field, ...embed } = parseSchemaPatch(schema);
    out.embed = embed;
    out.semanticField = field;
  }
  const rc = obj(body, "read_capacity", "read_capacity", false);
  if (rc) out.readCapacity = parseReadCapacityPatch(rc);
  const dp = parseDeletionProtection(body.deletion_protection);
  if (dp) out.deletionProtection = dp;
  const tags = parseTags(body.tags);
  if (tags) out.tags = tags;
  return out;
}
