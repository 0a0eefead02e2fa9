// create_index_for_model — an index with integrated embedding: records are written and searched as text, and the
// index's model turns the text into vectors. Checked first: the name's rules. Same settings → returned as is.
import { z } from "zod";
import { ServiceError } from "../../src/api/errors.js";
import type { CreateIndexForModelRequest } from "../../src/api/control.js";
import type { IndexModel } from "../../src/api/records.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { IndexSummary, summarizeIndex } from "../../src/tool-kit/results/index-summary.js";
import { newNameSchema } from "../../src/tool-kit/args/names.js";
import { ruleError } from "../../src/tool-kit/args/schema.js";
import { waitUntilReady } from "../../src/tool-kit/index-wait.js";
import { defineTool } from "../../src/tool-kit/tool.js";

const DEFAULT_WAIT_SECONDS = 45;
const DEFAULT_WAIT_WITH_PROGRESS_SECONDS = 180;

const RULES = { untouched: "created" } as const;
const rule = (text: string) => ruleError(text, RULES);
/** The placement when none is given, as create_index's. */
const DEFAULT_PLACEMENT = { cloud: "aws", region: "us-east-1" } as const;

// The API passes these maps to the model as they are (input_type, truncate, …): data, not arguments. Every key is
// sent (camelCase ones as the API spells them: inputType → input_type); the service refuses what it cannot honour.
const Parameters = z.record(z.string(), z.unknown(), rule("a map of parameter names to values")).optional();

const input = {
  name: newNameSchema("Index", "Up to 45 characters."),
  cloud: z.enum(["aws", "gcp", "azure"], rule("cloud is aws, gcp or azure")).optional().describe("Default aws."),
  region: z.string(rule("region is a region name, e.g. us-east-1")).min(1, rule("region is not empty")).max(64, rule("region is at most 64 characters")).optional().describe("Default us-east-1."),
  embed: z
    .object({
      model: z.string(rule("embed.model names a model (list_models shows them)")).min(1, rule("embed.model is not empty")).max(100, rule("embed.model is at most 100 characters")),
      fieldMap: z
        .object({ text: z.string(rule('embed.fieldMap.text names the record field to embed, e.g. "text"')).min(1, rule("embed.fieldMap.text is not empty")).max(100, rule("embed.fieldMap.text is at most 100 characters")).describe("Record field to embed.") }, rule('embed.fieldMap is {"text": "<field to embed>"}')),
      metric: z.enum(["cosine", "euclidean", "dotproduct"], rule("embed.metric is cosine, euclidean or dotproduct")).optional(),
      dimension: z.number(rule("embed.dimension is a whole number from 1 to 20000")).int(rule("embed.dimension is a whole number from 1 to 20000")).min(1, rule("embed.dimension is a whole number from 1 to 20000")).max(20_000, rule("embed.dimension is a whole number from 1 to 20000")).optional(),
      readParameters: Parameters.describe('For queries, e.g. {"input_type": "query"}.'),
      writeParameters: Parameters.describe("For records (same keys)."),
    }, rule('embed is {"model": …, "fieldMap": {"text": …}}')),
  deletionProtection: z.enum(["enabled", "disabled"], rule("deletionProtection is enabled or disabled")).optional(),
  tags: z.record(z.string().min(1).max(80), z.string().max(120), rule("tags map names of 1–80 characters to values of at most 120")).optional(),
  waitSeconds: z.number(rule("waitSeconds is a whole number from 0 to 600")).int(rule("waitSeconds is a whole number from 0 to 600")).min(0, rule("waitSeconds is a whole number from 0 to 600")).max(600, rule("waitSeconds is a whole number from 0 to 600")).optional(),
};
type Args = z.output<z.ZodObject<typeof input>>;

const snakeCase = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Every parameter as the API names it; a key given in both spellings with two values is refused. */
function params(p: Record<string, unknown> | undefined, what: string): Record<string, unknown> | undefined {
  if (p === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(p)) {
    const name = snakeCase(key);
    if (name in out && JSON.stringify(out[name]) !== JSON.stringify(value)) {
      throw new ToolError({ problem: `embed.${what} gives ${name} twice with different values (${JSON.stringify(out[name])} and ${JSON.stringify(value)})`, untouched: "created" });
    }
    out[name] = value;
  }
  return out;
}

function request(args: Args): CreateIndexForModelRequest {
  const e = args.embed;
  const read = params(e.readParameters, "readParameters");
  const write = params(e.writeParameters, "writeParameters");
  return {
    name: args.name,
    cloud: args.cloud ?? DEFAULT_PLACEMENT.cloud,
    region: args.region ?? DEFAULT_PLACEMENT.region,
    embed: {
      model: e.model,
      field_map: { text: e.fieldMap.text },
      ...(e.metric && { metric: e.metric }),
      ...(e.dimension !== undefined && { dimension: e.dimension }),
      ...(read && { read_parameters: read }),
      ...(write && { write_parameters: write }),
    },
    ...(args.deletionProtection && { deletion_protection: args.deletionProtection }),
    ...(args.tags && { tags: args.tags }),
  };
}

/** Every setting of the call the existing index does not have. */
function differences(index: IndexModel, args: Args): string[] {
  const out: string[] = [];
  const differ = (what: string, has: unknown, asked: unknown) => {
    if (asked !== undefined && has !== asked) out.push(`${what}: the index has ${JSON.stringify(has ?? null)}, this call asks for ${JSON.stringify(asked)}`);
  };
  if (!index.embed) out.push("embed: the index has no integrated embedding (it was made by create_index)");
  differ("embed.model", index.embed?.model, args.embed.model);
  differ("embed.fieldMap.text", index.embed?.field_map?.text, args.embed.fieldMap.text);
  differ("embed.metric", index.metric, args.embed.metric);
  differ("embed.dimension", index.dimension ?? undefined, args.embed.dimension);
  differ("cloud", index.spec.serverless?.cloud, args.cloud);
  differ("region", index.spec.serverless?.region, args.region);
  for (const [what, has, asked] of [
    ["readParameters", index.embed?.read_parameters, args.embed.readParameters],
    ["writeParameters", index.embed?.write_parameters, args.embed.writeParameters],
  ] as const) {
    for (const [key, value] of Object.entries(params(asked, what) ?? {})) differ(`embed.${what}.${key}`, (has as Record<string, unknown> | undefined)?.[key], value);
  }
  differ("deletionProtection", index.deletion_protection ?? "disabled", args.deletionProtection);
  for (const [key, value] of Object.entries(args.tags ?? {})) differ(`tags.${key}`, index.tags?.[key], value);
  return out;
}

export default defineTool({
  name: "create_index_for_model",
  title: "Create index for a model",
  description:
    "Create an index that embeds text itself. Models: e.g. llama-text-embed-v2 (hosted), local-bm25 (local, keywords).",
  inputSchema: input,
  outputSchema: {
    index: IndexSummary.describe("The index after the wait."),
    model: z.string().describe("The embedding model."),
    textField: z.string().describe("The field whose text is embedded."),
    created: z.boolean().describe("false when an index with these settings already existed."),
    ready: z.boolean().describe("Whether it accepts reads and writes now."),
    waitedSeconds: z.number().describe("Time spent waiting."),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  indexArguments: ["name"],
  async run(args, ctx) {
    const { service, signal } = ctx;
    let found: IndexModel | undefined;
    try {
      found = await service.control.describeIndex(args.name, signal);
    } catch (err) {
      if (!(err instanceof ServiceError && err.status === 404)) throw err;
    }
    let created = false;
    if (!found) {
      try {
        found = await service.control.createIndexForModel(request(args), signal);
        created = true;
      } catch (err) {
        if (!(err instanceof ServiceError && err.status === 409)) throw err;
        found = await service.control.describeIndex(args.name, signal);
      }
    }
    if (!created) {
      const diff = differences(found, args);
      if (diff.length > 0) {
        throw new ToolError({
          problem: `Index ${JSON.stringify(args.name)} already exists with different settings:\n${diff.map((d) => `- ${d}`).join("\n")}`,
          untouched: "changed",
          next: "use the existing index as it is (describe_index shows it), or call create_index_for_model with another name.",
        });
      }
    }
    const limitS = args.waitSeconds ?? (ctx.progressRequested ? DEFAULT_WAIT_WITH_PROGRESS_SECONDS : DEFAULT_WAIT_SECONDS);
    const wait = limitS > 0 && !found.status.ready;
    const waited = wait ? await waitUntilReady(found, limitS, ctx) : { index: found, seconds: 0 };
    const summary = summarizeIndex(waited.index);
    const model = waited.index.embed?.model ?? args.embed.model;
    const textField = String(waited.index.embed?.field_map?.text ?? args.embed.fieldMap.text);
    const structured = { index: summary, model, textField, created, ready: summary.ready, waitedSeconds: waited.seconds };
    const name = JSON.stringify(args.name);
    const head = !created
      ? `Index ${name} already exists with these settings; it is returned as is (nothing was created).`
      : summary.ready
        ? `Index ${name} created and ready.`
        : `Index ${name} created; it is still ${summary.state}${limitS === 0 ? " (not waited for: waitSeconds is 0)" : ` after ${waited.seconds} s`}.`;
    const table = markdownTable(
      ["name", "model", "text field", "vector type", "dimension", "metric", "state", "host"],
      [[summary.name, model, textField, summary.vectorType, summary.dimension, summary.metric, summary.state, summary.host]],
    );
    const next = summary.ready ? `\n\nNext step: write records with upsert_records (each with _id and a "${textField}" field).` : "";
    return { structured, table: `${head}\n\n${table}${next}` };
  },
});
