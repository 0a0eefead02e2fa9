// configure_index — changes an index's deletion protection, tags, pod replicas / type, or integrated-embedding
// settings, and shows each setting before → after. An empty change is refused.
import { z } from "zod";
import type { ConfigureIndexRequest, ReadCapacityRequest } from "../../src/api/control.js";
import type { IndexModel } from "../../src/api/records.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { indexArg, ruleError, wholeNumberArg } from "../../src/tool-kit/args/schema.js";
import { confirmDestruction } from "../../src/tool-kit/confirm.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { defineTool } from "../../src/tool-kit/tool.js";

const UNTOUCHED = "changed";
const RULES = { untouched: UNTOUCHED } as const;
const json = (v: unknown) => (v === undefined ? "(none)" : typeof v === "string" ? v : JSON.stringify(v));

/** Each setting the call touches, read from an index record. */
function settings(model: IndexModel, request: ConfigureIndexRequest): [string, string][] {
  const rows: [string, string][] = [];
  if (request.deletion_protection !== undefined) rows.push(["deletionProtection", json(model.deletion_protection)]);
  for (const key of Object.keys(request.tags ?? {})) rows.push([`tags.${key}`, json(model.tags?.[key])]);
  const pod = model.spec.pod as Record<string, unknown> | undefined;
  if (request.spec?.pod?.replicas !== undefined) rows.push(["pod.replicas", json(pod?.replicas)]);
  if (request.spec?.pod?.pod_type !== undefined) rows.push(["pod.podType", json(pod?.pod_type)]);
  if (request.spec?.serverless) rows.push(["readCapacity", json(readCapacityOf(model))]);
  const embed = (model as Record<string, unknown>).embed as Record<string, unknown> | undefined;
  for (const [key, name] of [["field_map", "fieldMap"], ["read_parameters", "readParameters"], ["write_parameters", "writeParameters"]] as const) {
    if (request.embed?.[key] !== undefined) rows.push([`embed.${name}`, json(embed?.[key])]);
  }
  return rows;
}

/** The read capacity as configured (mode, dedicated nodes), without its changing status. */
function readCapacityOf(model: IndexModel): unknown {
  const rc = model.read_capacity ?? (model.spec.serverless?.read_capacity as IndexModel["read_capacity"]);
  if (!rc) return undefined;
  const { status: _status, ...configured } = rc;
  return configured;
}

/** The read capacity argument in the service's names. */
function readCapacityRequest(rc: { mode: "OnDemand" | "Dedicated"; nodeType?: string; replicas?: number; shards?: number }): ReadCapacityRequest {
  if (rc.mode === "OnDemand") return { mode: "OnDemand" };
  const manual = rc.replicas !== undefined || rc.shards !== undefined ? { scaling: "Manual" as const, manual: { replicas: rc.replicas ?? 1, shards: rc.shards ?? 1 } } : {};
  return { mode: "Dedicated", dedicated: { ...(rc.nodeType !== undefined && { node_type: rc.nodeType }), ...manual } };
}

export default defineTool({
  name: "configure_index",
  title: "Configure index",
  description:
    "Change an index: deletion protection, tags (a value \"\" removes the tag), pod replicas or type, read capacity, or " +
    "the embedding settings of an index created for a model. Shows each setting before and after.",
  inputSchema: {
    index: indexArg("Name of the index to change.", RULES),
    deletionProtection: z.enum(["enabled", "disabled"]).optional().describe("enabled stops the index from being deleted."),
    tags: z.record(z.string(), z.string()).optional().describe('Tags to set, key → value; a value "" removes that tag. Other tags stay.'),
    pod: z
      .object({
        replicas: wholeNumberArg(1, 100, ruleError("pod.replicas is a whole number from 1 to 100", RULES)).optional(),
        podType: z.string().regex(/^(s1|p1|p2)\.(x1|x2|x4|x8)$/, ruleError("podType is s1, p1 or p2, then .x1, .x2, .x4 or .x8", RULES)).optional().describe("e.g. p1.x2."),
      })
      .optional()
      .describe("Pod-based indexes only."),
    embed: z
      .object({
        fieldMap: z.record(z.string(), z.string()).optional().describe('Which record field is embedded, e.g. {"text": "body"}.'),
        readParameters: z.record(z.string(), z.unknown()).optional().describe("Model parameters for queries."),
        writeParameters: z.record(z.string(), z.unknown()).optional().describe("Model parameters for upserts."),
      })
      .optional()
      .describe("Indexes made for a model only."),
    readCapacity: z
      .object({
        mode: z.enum(["OnDemand", "Dedicated"]),
        nodeType: z.string().max(32).optional(),
        replicas: wholeNumberArg(0, 100, ruleError("readCapacity.replicas is a whole number from 0 to 100", RULES)).optional(),
        shards: wholeNumberArg(1, 100, ruleError("readCapacity.shards is a whole number from 1 to 100", RULES)).optional(),
      })
      .optional()
      .describe("Serverless indexes: OnDemand, or Dedicated nodes."),
  },
  outputSchema: {
    index: z.string().describe("The index changed."),
    changes: z
      .array(z.object({ setting: z.string().describe("Setting name."), before: z.string().describe("Value before."), after: z.string().describe("Value after.") }))
      .describe("Each setting the call touched."),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run({ index, deletionProtection, tags, pod, embed, readCapacity }, ctx) {
    const { service, signal } = ctx;
    const request: ConfigureIndexRequest = {};
    if (deletionProtection) request.deletion_protection = deletionProtection;
    if (tags && Object.keys(tags).length > 0) request.tags = tags;
    if (pod && (pod.replicas !== undefined || pod.podType !== undefined)) {
      request.spec = { pod: { ...(pod.replicas !== undefined && { replicas: pod.replicas }), ...(pod.podType !== undefined && { pod_type: pod.podType }) } };
    }
    if (embed && (embed.fieldMap || embed.readParameters || embed.writeParameters)) {
      request.embed = {
        ...(embed.fieldMap && { field_map: embed.fieldMap }),
        ...(embed.readParameters && { read_parameters: embed.readParameters }),
        ...(embed.writeParameters && { write_parameters: embed.writeParameters }),
      };
    }
    if (readCapacity) request.spec = { ...request.spec, serverless: { read_capacity: readCapacityRequest(readCapacity) } };
    if (Object.keys(request).length === 0) {
      throw new ToolError({
        problem: "Nothing to change: give at least one of deletionProtection, tags, pod (replicas, podType), embed or readCapacity",
        untouched: UNTOUCHED,
        next: "describe_index shows the current settings.",
      });
    }
    const before = await service.control.describeIndex(index, signal);
    if (request.spec?.pod && !before.spec.pod) {
      throw new ToolError({ problem: `Index ${JSON.stringify(index)} is serverless; pod settings apply to pod-based indexes only`, untouched: UNTOUCHED });
    }
    if (request.spec?.serverless && before.spec.pod) {
      throw new ToolError({ problem: `Index ${JSON.stringify(index)} is pod-based; readCapacity applies to serverless indexes only`, untouched: UNTOUCHED });
    }
    if (request.embed?.field_map && service.control.schemaApi) {
      throw new ToolError({
        problem: `embed.fieldMap cannot be changed under API version ${ctx.config.apiVersion} (PINECONE_API_VERSION): from 2026-07 only the embedding's readParameters and writeParameters can`,
        untouched: UNTOUCHED,
      });
    }
    if (request.deletion_protection === "disabled" && before.deletion_protection === "enabled") {
      await confirmDestruction(ctx, {
        action: `Turn off deletion protection of index ${JSON.stringify(index)}`,
        warning: "the index can then be deleted",
        loses: `the protection that stops index ${JSON.stringify(index)} and its records from being deleted`,
        name: index,
        untouched: UNTOUCHED,
      });
    }
    const textField = before.embed?.field_map?.text;
    const after = await service.control.configureIndex(index, request, signal, typeof textField === "string" ? textField : undefined);
    service.hosts.forget(index);
    const was = new Map(settings(before, request));
    const changes = settings(after, request).map(([setting, now]) => ({ setting, before: was.get(setting) ?? "(none)", after: now }));
    const table = markdownTable(["setting", "before", "after"], changes.map((c) => [c.setting, c.before, c.after]));
    return { structured: { index, changes }, table: `Index ${JSON.stringify(index)} configured:\n\n${table}` };
  },
});
