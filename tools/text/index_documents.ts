// index_documents — a folder of notes becomes searchable text records, kept in step as the files change: chunks
// that follow the text's headings and paragraphs, ids from the file's path and chunk number, and on each run only
// new or changed chunks sent and the chunks of shortened or deleted files pruned.
import { z } from "zod";
import type { IndexModel } from "../../src/api/records.js";
import type { SyncDocumentsOutcome } from "../../src/ingest/documents/sync-documents.js";
import { textField } from "../../src/ingest/text-upsert.js";
import { indexArg, namespaceArg, ruleError, wholeNumberArg } from "../../src/tool-kit/args/schema.js";
import { escapeCell, markdownTable, quotedLine } from "../../src/tool-kit/format/table.js";
import { distinctFailures, failuresField, writableIndex, writtenTo } from "../../src/tool-kit/results/writes.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import type { Service } from "../../src/api/service.js";
import { defineTool } from "../../src/tool-kit/tool.js";
import { documentsIndexOf } from "../../src/tool-kit/documents/folder-documents.js";
import { namespaceName } from "../../src/common/namespace-name.js";

/** Loaded on the first call, not at start-up: file reading, chunking and the HTML parser. */
const documents = () => import("../../src/ingest/documents/sync-documents.js");

const RULES = { untouched: "read" } as const;
const rule = (text: string) => ruleError(text, RULES);
const MAX_SKIPPED_SHOWN = 20;
const globList = (what: string) =>
  z.array(z.string().min(1, rule("a glob is not empty")).max(512, rule("a glob is at most 512 characters"))).max(50, rule("at most 50 globs")).optional().describe(what);

/** Characters a chunk may hold: about 3 characters a token of the model's input limit, within 400–4,000. */
async function defaultChunkSize(service: Service, model: IndexModel, signal: AbortSignal): Promise<number> {
  const name = model.embed?.model;
  if (name === undefined) return 1500;
  const models = await service.inference.listModels({ type: "embed" }, signal).catch(() => []);
  const tokens = models.find((m) => m.model === name)?.max_sequence_length;
  return typeof tokens === "number" && tokens > 0 ? Math.max(400, Math.min(4000, tokens * 3)) : 2000;
}

const Outcome = {
  ...writtenTo,
  files: z.number().int().describe("Documents indexed: read, or unchanged since the last run by size and modification time."),
  filesRead: z.number().int().describe("Of those, documents read (the others' size and modification time match their first chunk's record)."),
  skipped: z.number().int().describe("Files skipped (binary, unknown format, not UTF-8, links, …)."),
  chunks: z.number().int().describe("Chunks the documents hold now."),
  bytes: z.number().int().describe("Bytes of the documents indexed."),
  added: z.number().int().describe("Chunks new to the index."),
  changed: z.number().int().describe("Chunks whose text changed."),
  unchanged: z.number().int().describe("Chunks already in the index as they are (not sent)."),
  pruned: z.number().int().describe("Records deleted: chunks of shortened or deleted files (would be, in a dry run)."),
  upserted: z.number().int().describe("New or changed chunks written."),
  seconds: z.number().describe("Wall-clock time of the call."),
  dryRun: z.boolean().describe("True when nothing was written."),
  chunkSize: z.number().int().describe("Characters a chunk may hold in this run."),
  skippedFiles: z.array(z.object({ path: z.string().describe("The file."), reason: z.string().describe("Why it was skipped.") })).describe(`The first ${MAX_SKIPPED_SHOWN} skipped files.`),
  skippedFolders: z.array(z.object({ path: z.string().describe("The folder."), reason: z.string().describe("Why it was not entered.") })).describe(`The first ${MAX_SKIPPED_SHOWN} folders not entered (hidden or of installed packages; an include glob that names one enters it).`),
  notIncluded: z.number().int().describe("Files no include glob matched."),
  excluded: z.number().int().describe("Files an exclude glob matched."),
  notLanded: z.array(z.string()).describe("Ids of new or changed chunks that were not written (empty when all landed)."),
  failures: failuresField("One entry per distinct write failure."),
  note: z.string().describe("What happened and the next step, in words."),
};
type Structured = z.output<z.ZodObject<typeof Outcome>>;

function summary(s: Structured): string {
  const counts = `${s.files} files (${s.filesRead} read), ${s.skipped} skipped, ${s.chunks} chunks: ${s.added} added, ${s.changed} changed, ${s.unchanged} unchanged, ${s.pruned} pruned`;
  const table = markdownTable(
    ["files", "read", "skipped", "chunks", "added", "unchanged", "changed", "pruned", "seconds"],
    [[s.files, s.filesRead, s.skipped, s.chunks, s.added, s.unchanged, s.changed, s.pruned, s.seconds.toFixed(2)]],
  );
  const skipped = s.skippedFiles.map((f) => [f.path, f.reason]);
  const skippedTable =
    skipped.length === 0
      ? ""
      : `\n\nSkipped${s.skipped > skipped.length ? ` (the first ${skipped.length} of ${s.skipped})` : ""}:\n\n${markdownTable(["file", "why"], skipped)}`;
  const leftOut = [s.notIncluded > 0 ? `${s.notIncluded} matched no include glob` : "", s.excluded > 0 ? `${s.excluded} matched an exclude glob` : ""].filter(Boolean);
  const filtered = leftOut.length > 0 ? `\n\nFiles left out: ${leftOut.join("; ")}.` : "";
  const folders = s.skippedFolders.map((f) => f.path);
  const foldersLine =
    folders.length === 0
      ? ""
      : `\n\nFolders not entered (hidden or of installed packages; an include glob naming one, e.g. ".github/**", enters it): ${folders.map((f) => escapeCell(f)).join(", ")}.`;
  return `${counts}.\n\n${table}${filtered}${foldersLine}${skippedTable}\n\n${s.note}`;
}

/** What a run's result says, from either path's counts (records or documents). */
function structuredOf(
  out: Pick<SyncDocumentsOutcome, "files" | "filesRead" | "skipped" | "skippedFolders" | "chunks" | "bytes" | "added" | "changed" | "unchanged" | "pruned" | "upserted" | "notIncluded" | "excluded" | "notLanded">,
  run: { index: string; namespace: string; started: number; dryRun: boolean; chunkSize: number },
  note: (failures: number) => string,
): Structured {
  const failures = distinctFailures(out.notLanded);
  return {
    index: run.index, namespace: run.namespace, files: out.files, filesRead: out.filesRead, skipped: out.skipped.length, chunks: out.chunks, bytes: out.bytes,
    added: out.added, changed: out.changed, unchanged: out.unchanged, pruned: out.pruned, upserted: out.upserted,
    seconds: Math.round((performance.now() - run.started) / 10) / 100, dryRun: run.dryRun, chunkSize: run.chunkSize,
    skippedFiles: out.skipped.slice(0, MAX_SKIPPED_SHOWN), skippedFolders: out.skippedFolders.slice(0, MAX_SKIPPED_SHOWN),
    notIncluded: out.notIncluded, excluded: out.excluded, notLanded: out.notLanded.flatMap((f) => f.ids), failures,
    note: note(failures.length),
  };
}

function noteFor(out: SyncDocumentsOutcome, dryRun: boolean, index: string): string {
  if (dryRun) return `Dry run: nothing was written. Call index_documents again without dryRun to write ${out.added + out.changed} chunks and prune ${out.pruned}.`;
  if (out.stopped !== undefined) {
    return (
      `The run stopped (${out.stopped}): ${stoppedAccount(out)} ` +
      "Next step: call index_documents again with the same arguments — chunks already written are not sent again."
    );
  }
  return `The documents are in step with index ${JSON.stringify(index)}. Next step: search_records finds text in them (the heading path and source are in each record's fields).`;
}

/** What a stopped run did and left undone, in one sentence (the result's note, and the log line of a cancelled run). */
function stoppedAccount(out: SyncDocumentsOutcome): string {
  const notWritten = out.notLanded.reduce((n, f) => n + f.ids.length, 0);
  const inFlight = out.notLanded.filter((f) => f.message.startsWith("in flight")).reduce((n, f) => n + f.ids.length, 0);
  return (
    `${out.filesDone} of ${out.found} documents are in step; ${out.upserted} chunks were written, ${notWritten} were not` +
    `${inFlight > 0 ? ` (${inFlight} of them were still in flight and may have landed)` : ""}; ` +
    `${out.pruned > 0 ? `${out.pruned} chunks were pruned before it stopped` : "nothing was pruned"}.`
  );
}

export default defineTool({
  name: "index_documents",
  title: "Index a folder of documents",
  description:
    "Index Markdown, text and HTML files from allowed folders into an index that embeds text, a record per chunk " +
    '(_id "folder/path#chunk"; fields source, headingPath, chunk). Run again after edits: only changes are sent.',
  inputSchema: {
    index: indexArg(undefined, RULES),
    namespace: namespaceArg(undefined, RULES),
    paths: z
      .array(z.string().min(1, rule("a path is not empty")).max(4096, rule("paths are at most 4096 characters")))
      .min(1, rule("give 1–100 files or folders"))
      .max(100, rule("give 1–100 files or folders"))
      .describe("Absolute, or relative to the first allowed folder."),
    include: globList('As in .gitignore, e.g. "guides/**".'),
    exclude: globList("Globs to leave out."),
    chunkSize: wholeNumberArg(100, 8000, rule("chunkSize is a whole number of characters from 100 to 8000"))
      .optional()
      .describe("Characters; default from the model."),
    chunkOverlap: wholeNumberArg(0, 2000, rule("chunkOverlap is a whole number of characters from 0 to 2000"))
      .optional()
      .describe("Default chunkSize / 10."),
    dryRun: z.boolean().optional(),
    prune: z.boolean().optional().describe("Delete chunks of removed files (default true)."),
  },
  outputSchema: Outcome,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run({ index, namespace = "", paths, include, exclude, chunkSize, chunkOverlap, dryRun = false, prune = true }, ctx) {
    const started = performance.now();
    const { service, signal } = ctx;
    const model = await writableIndex(service, index, signal);
    const field = textField(model);
    const size = chunkSize ?? (await defaultChunkSize(service, model, signal));
    const overlap = chunkOverlap ?? Math.floor(size / 10);
    if (overlap >= size / 2) {
      throw new ToolError({ problem: `chunkOverlap (${overlap}) must be less than half of chunkSize (${size})`, untouched: "read" });
    }
    const run = { index, namespace, started, dryRun, chunkSize: size };
    if (field === undefined) {
      // A documents index (full-text search, API 2026-07) takes the chunks as documents; any other index is refused.
      const into = await documentsIndexOf(service, index, signal);
      if (into === undefined) {
        throw new ToolError({
          problem: `Index ${JSON.stringify(index)} has no integrated embedding, so it cannot embed documents`,
          untouched: "read",
          next: "create an index for a model with create_index_for_model (list_models shows the models), or a documents index with create_documents_index, then call index_documents with it.",
        });
      }
      const { syncIntoDocuments } = await import("../../src/ingest/documents/sync-into-documents.js");
      const { DocumentPathError } = await documents();
      let out: Awaited<ReturnType<typeof syncIntoDocuments>>;
      try {
        out = await syncIntoDocuments({
          service, host: model.host, namespace: namespaceName(namespace), field: into.field, paths, roots: await ctx.allowedRoots(), include, exclude,
          sizes: { size, overlap }, dryRun, prune, complete: into.complete, signal, progress: (done, total, message) => ctx.progress(done, total, message),
        });
      } catch (err) {
        if (err instanceof DocumentPathError) throw new ToolError({ problem: err.message, untouched: "read" });
        throw err;
      }
      const by = `words and phrases in field ${JSON.stringify(into.field)}${into.meaning ? `, and by meaning (${into.meaning})` : ""}`;
      const structured = structuredOf(out, run, (failures) =>
        dryRun
          ? `Dry run: nothing was written. Call index_documents again without dryRun to write ${out.added + out.changed} chunks and prune ${out.pruned}.`
          : failures > 0
            ? "Next step: call index_documents again with the same arguments — chunks already written are not sent again."
            : `The documents are in step with index ${JSON.stringify(index)}. Next step: search_documents finds them by ${by}.`,
      );
      return structured.failures.length > 0 ? { structured, isError: true, table: `${structured.notLanded.length} chunks were NOT written.\n\n${summary(structured)}` } : { structured, table: summary(structured) };
    }
    const { syncDocuments, DocumentPathError } = await documents();
    let out: SyncDocumentsOutcome;
    try {
      out = await syncDocuments({
        service, index: model, field, namespace, paths, roots: await ctx.allowedRoots(), include, exclude,
        sizes: { size, overlap }, dryRun, prune, concurrency: ctx.config.concurrency, signal,
        progress: (done, total, message) => ctx.progress(done, total, message),
      });
    } catch (err) {
      if (err instanceof DocumentPathError) throw new ToolError({ problem: err.message, untouched: "read" });
      throw err;
    }
    const structured = structuredOf(out, run, () => noteFor(out, dryRun, index));
    const failures = structured.failures;
    const text = summary(structured);
    if (out.stopped === undefined) return { structured, table: text };
    // A cancelled call's result never reaches the client (the protocol drops it): the log keeps the account.
    if (out.stopped === "cancelled") {
      ctx.log.warning(`index_documents into ${JSON.stringify(index)} (namespace ${JSON.stringify(namespace)}) cancelled: ${stoppedAccount(out)} Run it again with the same arguments to finish.`);
    }
    const why = failures.map((f) => `- ${f.records} chunks: ${quotedLine(f.message)}`).join("\n");
    return { structured, isError: true, table: `${structured.notLanded.length} chunks were NOT written.\n\n${text}${why ? `\n\nWhy:\n${why}` : ""}` };
  },
});
