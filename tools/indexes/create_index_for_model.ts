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
import { waitUntilReady } from "../../src/tool-kit/index-wait.js";
import { defineTool } from "../../src/tool-kit/tool.js";

const DEFAULT_WAIT_SECONDS = 45;
const DEFAULT_WAIT_WITH_PROGRESS_SECONDS = 180;

// The API passes these maps to the model as they are (input_type, truncate, dimension, …): data, not arguments.
const Parameters = z.record(z.string(), z.unknown()).optional();

const input = {
  name: newNameSchema("Index", 'Name of the new index (1–45 of a-z, 0-9, "-").'),
  cloud: z.enum(["aws", "gcp", "azure"]).describe("Cloud provider."),
  region: z.string().min(1).max(64).describe("Region of that cloud, e.g. us-east-1."),
  embed: z
    .object({
      model: z.string().min(1).max(100).describe("Embedding model (list_models shows the ones there are)."),
      fieldMap: z.object({ text: z.string().min(1).max(100).describe("The record field to embed, e.g. chunk_text.") }).describe("Which field is embedded."),
      metric: z.enum(["cosine", "euclidean", "dotproduct"]).optional().describe("Default: the model's."),
      dimension: z.number().int().min(1).max(20_000).optional().describe("For models with several dimensions."),
      readParameters: Parameters.describe('How queries are embedded, e.g. {"input_type": "query", "truncate": "END"}.'),
      writeParameters: Parameters.describe("How records are embedded (same keys)."),
    })
    .describe("The model and the field it embeds."),
  deletionProtection: z.enum(["enabled", "disabled"]).optional().describe("Default disabled."),
  tags: z.record(z.string().min(1).max(80), z.string().max(120)).optional().describe("Labels, key → value."),
  waitSeconds: z.number().int().min(0).max(600).optional().describe(`Seconds to wait until ready (default ${DEFAULT_WAIT_SECONDS}; ${DEFAULT_WAIT_WITH_PROGRESS_SECONDS} with progress).`),
};
type Args = z.output<z.ZodObject<typeof input>>;

const params = (p: { inputType?: string; truncate?: string } | undefined) =>
  p === undefined ? undefined : { ...(p.inputType && { input_type: p.inputType }), ...(p.truncate && { truncate: p.truncate }) };

function request(args: Args): CreateIndexForModelRequest {
  const e = args.embed;
  const read = params(e.readParameters);
  const write = params(e.writeParameters);
  return {
    name: args.name,
    cloud: args.cloud,
    region: args.region,
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
  differ("deletionProtection", index.deletion_protection ?? "disabled", args.deletionProtection);
  for (const [key, value] of Object.entries(args.tags ?? {})) differ(`tags.${key}`, index.tags?.[key], value);
  return out;
}

export default defineTool({
  name: "create_index_for_model",
  title: "Create index for a model",
  description:
    "Create an index that embeds text itself (write with upsert_records, find with search_records). Hosted models include " +
    "llama-text-embed-v2 and multilingual-e5-large; locally local-bm25 (keywords) and the user's embeddings server. list_models " +
    "shows what exists. Same settings again → returned as is.",
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
