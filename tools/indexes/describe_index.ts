// describe_index — one index's full record: spec, status, host, deletion protection, tags.
import { z } from "zod";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { camelKeys, IndexSummary, indexKind, stateCell, summarizeIndex } from "../../src/tool-kit/results/index-summary.js";
import { indexArg } from "../../src/tool-kit/args/schema.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";

// The fields it shares with list_indexes' summary (same descriptions), in this record's order.
const { kind, holds, dimension, metric, vectorType, host, state, ready, deletionProtection, fields, readCapacity, cmekId, sourceCollection, sourceBackupId } = IndexSummary.shape;
const IndexRecord = z.object({
  name: z.string().describe("Index name."),
  kind, holds, dimension, metric, vectorType, host, state, ready, deletionProtection, fields, readCapacity, cmekId, sourceCollection, sourceBackupId,
  tags: z.record(z.string(), z.string()).optional().describe("The index's tags, key → value."),
  spec: z
    .object({
      serverless: z.looseObject({}).optional().describe("Serverless spec as the service gives it: cloud, region, …"),
      pod: z.looseObject({}).optional().describe("Pod spec as the service gives it: environment, podType, pods, replicas, shards, …"),
    })
    .describe("Where and how the index runs, with every field the service gives."),
  embed: z
    .object({
      model: z.string().describe("The embedding model."),
      textField: z.string().describe("The record field whose text it embeds."),
      readParameters: z.record(z.string(), z.unknown()).optional().describe("How queries are embedded."),
      writeParameters: z.record(z.string(), z.unknown()).optional().describe("How records are embedded."),
    })
    .optional()
    .describe("Integrated embedding (write with upsert_records, search with search_records); absent otherwise."),
});
type IndexRecord = z.infer<typeof IndexRecord>;

/** The object without its null / undefined fields. */
function present(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null));
}

/** "dense_vector 1536 cosine", "string full-text en, stemming", "float filterable". */
function fieldCell(f: NonNullable<IndexRecord["fields"]>[number]): string {
  const fts = f.fullTextSearch;
  const analysis = fts && ["full-text", fts.language, fts.stemming && "stemming", fts.stopWords && "stop words"].filter(Boolean).join(" ");
  return [f.type, f.model, f.dimension, f.metric, analysis, f.filterable && "filterable"].filter((p) => p !== undefined && p !== false && p !== "").join(" ");
}

function readCapacityCell(rc: NonNullable<IndexRecord["readCapacity"]>): string {
  const nodes = rc.nodeType === undefined ? "" : ` ${rc.nodeType} × ${rc.replicas ?? "?"} replicas / ${rc.shards ?? "?"} shards`;
  return `${rc.mode}${nodes}${rc.state ? ` (${rc.state})` : ""}`;
}

function cell(v: unknown): string {
  if (typeof v === "object" && v !== null) return JSON.stringify(v);
  return String(v);
}

export default defineTool({
  name: "describe_index",
  title: "Describe index",
  description:
    "Show one index's full record: dimension, metric, state, host, spec, deletion protection and tags. Use it to check " +
    "an index before writing or querying.",
  inputSchema: {
    index: indexArg("Index name."),
  },
  outputSchema: { index: IndexRecord.describe("The index as the service describes it.") },
  annotations: READ_ONLY,
  async run({ index }, { service, signal }) {
    const model = await service.control.describeIndex(index, signal);
    const { serverless, pod } = model.spec;
    const summary = summarizeIndex(model);
    const record = present({
      name: model.name,
      kind: indexKind(model),
      holds: summary.holds,
      dimension: typeof model.dimension === "number" ? model.dimension : undefined,
      metric: model.metric,
      vectorType: model.vector_type,
      host: model.host,
      state: model.status.state,
      ready: model.status.ready,
      deletionProtection: model.deletion_protection,
      fields: summary.fields,
      readCapacity: summary.readCapacity,
      cmekId: summary.cmekId,
      sourceCollection: summary.sourceCollection,
      sourceBackupId: summary.sourceBackupId,
      tags: model.tags ?? undefined,
      spec: present({ serverless: serverless && camelKeys(present(serverless)), pod: pod && camelKeys(present(pod)) }),
      embed: model.embed
        ? present({
            model: model.embed.model,
            textField: String(model.embed.field_map?.text ?? ""),
            readParameters: model.embed.read_parameters ?? undefined,
            writeParameters: model.embed.write_parameters ?? undefined,
          })
        : undefined,
    }) as IndexRecord;

    const rows: [string, unknown][] = [
      ["name", record.name],
      ["kind", record.kind],
      ["dimension", record.dimension ?? (record.vectorType === "sparse" ? "none (sparse)" : undefined)],
      ["metric", record.metric],
      ["vector type", record.vectorType],
      ["state", stateCell(record)],
      ["host", record.host],
    ];
    for (const [kind, spec] of Object.entries(record.spec)) {
      for (const [k, v] of Object.entries(spec ?? {})) rows.push([`${kind}.${k}`, v]);
    }
    if (record.embed) {
      rows.push(["embed model", record.embed.model], ["embed text field", record.embed.textField]);
    }
    if (record.holds !== "vectors") rows.push(["holds", record.holds]);
    for (const f of record.fields ?? []) rows.push([`field ${f.name}`, fieldCell(f)]);
    if (record.readCapacity && !serverless?.read_capacity) rows.push(["read capacity", readCapacityCell(record.readCapacity)]); // else a spec row shows it
    rows.push(["cmek", record.cmekId], ["source collection", record.sourceCollection], ["source backup", record.sourceBackupId]);
    rows.push(["deletion protection", record.deletionProtection]);
    const tags = Object.entries(record.tags ?? {});
    rows.push(["tags", tags.length ? tags.map(([k, v]) => `${k}=${v}`).join(", ") : "none"]);
    const table = markdownTable(
      ["field", "value"],
      rows.filter(([, v]) => v !== undefined && v !== null).map(([k, v]) => [k, cell(v)]),
    );
    return { structured: { index: record }, table: `Index ${JSON.stringify(record.name)}:\n\n${table}` };
  },
});
