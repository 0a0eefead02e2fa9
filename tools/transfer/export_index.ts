// export_index — every record of an index (or of the namespaces named) written to files in a new folder under an
// allowed root, in the layout the hosted service's bulk import reads: one folder per namespace ("__default__" for the
// default one) of Parquet files (id, values, sparse_values, metadata as JSON text), or JSONL files of upsert_vectors
// records. import_vectors reads either back; start_bulk_import takes the Parquet folder once it is in object storage.
import { z } from "zod";
import { namespaceName } from "../../src/common/namespace-name.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { humanBytes } from "../../src/tool-kit/format/size.js";
import { readyIndex } from "../../src/tool-kit/index-host.js";
import { textField } from "../../src/ingest/text-records.js";
import { indexArg, ruleError, textArg, wholeNumberArg } from "../../src/tool-kit/args/schema.js";
import { defineTool } from "../../src/tool-kit/tool.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";

const RULES = { untouched: "written" } as const;
const rule = (text: string) => ruleError(text, RULES);
const DEFAULT_RECORDS_PER_FILE = 100_000;

/** Loaded on the first call: the Parquet writer stays off the server's startup path. */
const exporter = () => import("../../src/ingest/export/run-export.js");
const folders = () => import("../../src/ingest/export/safe-create.js");

const Outcome = {
  index: z.string().describe("The index exported."),
  folder: z.string().describe("The export folder (its real path): one sub-folder per namespace."),
  format: z.string().describe('"parquet" or "jsonl".'),
  records: z.number().int().describe("Records written, in all files."),
  bytes: z.number().int().describe("Bytes written, in all files."),
  seconds: z.number().describe("Wall-clock time of the whole call."),
  namespaces: z
    .array(
      z.object({
        namespace: z.string().describe('Namespace name ("__default__" is the default namespace), also the name of its folder.'),
        records: z.number().int().describe("Records written for it."),
        files: z.number().int().describe("Complete files written for it."),
      }),
    )
    .describe("Per namespace, in the order exported."),
  files: z
    .array(
      z.object({
        namespace: z.string().describe("The namespace it holds."),
        path: z.string().describe("The file's path."),
        records: z.number().int().describe("Records in it."),
        bytes: z.number().int().describe("Its size."),
      }),
    )
    .describe("Every complete file written."),
  vanished: z.number().int().describe("Records listed but deleted before they could be read (the index changed during the export)."),
  stopped: z.string().optional().describe("Why the export stopped before the end; absent when it finished. The file being written then was removed."),
};
type Structured = z.output<z.ZodObject<typeof Outcome>>;

/** The namespaces of the index with their counts ("" the default one, whichever name the service gave it). */
function namespaceCounts(stats: { namespaces?: Record<string, { vectorCount?: number }> }): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [name, ns] of Object.entries(stats.namespaces ?? {})) {
    const key = name === "__default__" ? "" : name;
    counts.set(key, (counts.get(key) ?? 0) + (ns.vectorCount ?? 0));
  }
  return counts;
}

const shownList = (names: Iterable<string>) => [...names].map((n) => JSON.stringify(namespaceName(n))).join(", ") || "none";

export default defineTool({
  name: "export_index",
  title: "Export an index to files",
  description:
    "Write every record of an index (ids, dense and sparse values, metadata), or of the namespaces named, to files in " +
    "a new folder under an allowed folder: one sub-folder per namespace, in the Parquet layout the hosted service's " +
    "bulk import reads (start_bulk_import, once uploaded to object storage), or JSONL (text records for an index that " +
    "embeds text). import_vectors reads them back.",
  inputSchema: {
    index: indexArg(undefined, RULES),
    folder: textArg(1, 4096, rule("give the path of a new or empty folder, 1–4096 characters")).describe(
      "The export folder: absolute, or relative to the first allowed folder; made if missing, refused if it holds anything.",
    ),
    namespaces: z
      .array(textArg(0, 512, rule("namespaces are at most 512 characters")), rule("namespaces is a list of names"))
      .min(1, rule("name at least one namespace, or leave namespaces out to export them all"))
      .max(1000, rule("at most 1000 namespaces a call"))
      .optional()
      .describe('Default: every namespace. "" or "__default__" is the default namespace.'),
    format: z.enum(["parquet", "jsonl"], rule('format is "parquet" or "jsonl"')).optional().describe('Default "parquet".'),
    recordsPerFile: wholeNumberArg(1000, 10_000_000, rule("recordsPerFile is a whole number from 1000 to 10,000,000"))
      .optional()
      .describe(`Records a file holds at most. Default ${DEFAULT_RECORDS_PER_FILE.toLocaleString("en-US")}.`),
  },
  outputSchema: Outcome,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ index, folder, namespaces, format = "parquet", recordsPerFile = DEFAULT_RECORDS_PER_FILE }, ctx) {
    const started = performance.now();
    const { service, signal } = ctx;
    const model = await readyIndex(service, index, signal, "written");
    if (model.spec.pod) {
      throw new ToolError({
        problem: `Index ${JSON.stringify(index)} is pod-based, and the service lists record ids (which an export reads) only in serverless indexes`,
        untouched: "written",
        next: "create_collection makes a static copy of a pod-based index; create_index from that collection makes a serverless one to export.",
      });
    }
    const counts = namespaceCounts(await service.data.describeIndexStats(model.host, signal));
    const chosen = namespaces === undefined ? [...counts.keys()].filter((n) => (counts.get(n) ?? 0) > 0).sort() : [...new Set(namespaces.map((n) => (n === "__default__" ? "" : n)))];
    const absent = chosen.filter((n) => (counts.get(n) ?? 0) === 0);
    if (chosen.length === 0 || absent.length > 0) {
      throw new ToolError({
        problem:
          chosen.length === 0
            ? `Index ${JSON.stringify(index)} holds no records`
            : `Index ${JSON.stringify(index)} has no records in the namespace${absent.length > 1 ? "s" : ""} ${shownList(absent)} (namespaces with records: ${shownList([...counts.keys()].filter((n) => (counts.get(n) ?? 0) > 0))})`,
        untouched: "written",
        ...(chosen.length > 0 && { next: "call again naming namespaces that hold records, or without namespaces to export them all." }),
      });
    }
    const { folderNameProblem, runExport } = await exporter();
    for (const n of chosen) {
      const problem = folderNameProblem(n);
      if (problem !== undefined) {
        throw new ToolError({ problem: `The namespace ${JSON.stringify(n)} cannot be exported to a folder of its name: it ${problem}`, untouched: "written", next: "name the other namespaces in namespaces." });
      }
    }
    const prepared = await (await folders()).prepareExportFolder(folder, await ctx.allowedRoots());
    if (!prepared.ok) throw new ToolError({ problem: prepared.message, untouched: "written" });

    const textRecords = format === "jsonl" && textField(model) !== undefined;
    const total = chosen.reduce((n, ns) => n + (counts.get(ns) ?? 0), 0);
    const outcome = await runExport({
      data: service.data, host: model.host, folder: prepared.folder, namespaces: chosen, format, textRecords, recordsPerFile,
      inFlight: ctx.config.concurrency, signal, ...(ctx.stopping && { stopping: ctx.stopping }),
      onProgress: (done) => ctx.progress(done, Math.max(total, done), `${done} of about ${total} records written`),
    });

    const s: Structured = {
      index, folder: prepared.folder.path, format,
      records: outcome.files.reduce((n, f) => n + f.records, 0),
      bytes: outcome.files.reduce((n, f) => n + f.bytes, 0),
      seconds: Math.round((performance.now() - started) / 10) / 100,
      namespaces: [...outcome.records].map(([ns, records]) => ({ namespace: namespaceName(ns), records, files: outcome.files.filter((f) => f.namespace === ns).length })),
      files: outcome.files.map((f) => ({ namespace: namespaceName(f.namespace), path: f.path, records: f.records, bytes: f.bytes })),
      vanished: outcome.vanished,
      ...(outcome.stopped !== undefined && { stopped: outcome.stopped }),
    };
    const table = markdownTable(
      ["namespace", "folder", "files", "records", "size"],
      s.namespaces.map((n) => [n.namespace, `${s.folder}/${n.namespace}`, n.files, n.records, humanBytes(s.files.filter((f) => f.namespace === n.namespace).reduce((b, f) => b + f.bytes, 0))]),
    );
    const what =
      format === "parquet"
        ? "Parquet files in the hosted service's bulk-import layout"
        : textRecords
          ? "JSONL files of upsert_records records (the index embeds text: an index for the same model embeds them again on import)"
          : "JSONL files of upsert_vectors records";
    const vanished = s.vanished > 0 ? ` ${s.vanished} records were deleted from the index while it was exported and are not in the files.` : "";
    if (outcome.stopped !== undefined) {
      const left = chosen.slice(chosen.indexOf(outcome.stoppedIn ?? "")).map((n) => JSON.stringify(namespaceName(n)));
      return {
        structured: s,
        isError: true,
        table:
          `The export stopped: ${outcome.stopped}. ${s.records} records are in ${s.files.length} complete files under ${s.folder} ` +
          `(${what}); the file being written was removed.${vanished}\n\n${table}`,
        note: `Next step: export the rest (namespaces ${left.join(", ")}) with export_index into another new folder, or call again with a new folder for the whole index.`,
      };
    }
    const upload =
      format === "parquet"
        ? `To load them into the hosted service: upload the folder's contents to object storage (e.g. s3://BUCKET/PATH/${s.namespaces[0]?.namespace ?? "__default__"}/part-00000.parquet), then call start_bulk_import with uri "s3://BUCKET/PATH/" (the namespaces must not exist in the target index yet). `
        : "The hosted service's bulk import reads Parquet only; export with format \"parquet\" for start_bulk_import. ";
    return {
      structured: s,
      table: `Exported ${s.records} records of index ${JSON.stringify(index)} (${s.namespaces.length} namespace${s.namespaces.length === 1 ? "" : "s"}) to ${s.folder} as ${what}, ${humanBytes(s.bytes)} in ${s.seconds.toFixed(2)} s.${vanished}\n\n${table}`,
      note: `Next step: ${upload}import_vectors reads each file back: its namespace is the name of the folder it is in.`,
    };
  },
});
