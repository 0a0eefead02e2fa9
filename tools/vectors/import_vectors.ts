// import_vectors — write the records of a JSONL or Parquet file into an index. The file must lie under an allowed
// root. A first streaming pass checks every record (nothing is written unless all are valid); the second streams
// the file through the same ingest path as upsert_vectors. A stopped import says which lines landed and where to
// resume.
import { z } from "zod";
import type { IndexModel } from "../../src/api/records.js";
import { refusalText } from "../../src/tool-kit/refusal.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { markdownTable, quotedLine } from "../../src/tool-kit/format/table.js";
import { importSlot } from "../../src/ingest/import-slots.js";
import { openAllowedFile, type OpenedFile } from "../../src/common/safe-open.js";
import type { FileCheck } from "../../src/ingest/file-check.js";
import type { PositionMap, RecordSource } from "../../src/ingest/sources/index.js";
import { runUpsert, type UpsertOutcome } from "../../src/ingest/upsert.js";
import { runTextUpsert, textField } from "../../src/ingest/text-upsert.js";
import { MAX_TEXT_RECORDS, readTextFile, type TextFile } from "../../src/ingest/text-import.js";
import { indexArg, namespaceArg, ruleError, wholeNumberArg } from "../../src/tool-kit/args/schema.js";
import { defineTool } from "../../src/tool-kit/tool.js";
import { FRESHNESS_NOTE, isHostedService } from "../../src/tool-kit/hosted-service.js";
import { distinctFailures, failuresField, upsertedField, writableIndex, writtenTo } from "../../src/tool-kit/results/writes.js";
import { namespaceName } from "../../src/common/namespace-name.js";

const MAX_SHOWN = 20;
const RULES = { untouched: "read" } as const;
const rule = (text: string) => ruleError(text, RULES);

const Outcome = {
  ...writtenTo,
  file: z.string().describe("The file read (its real path, links resolved)."),
  format: z.string().describe('"jsonl" or "parquet".'),
  startAt: z.number().int().describe("First line (JSONL) or row (Parquet) read, 1-based."),
  records: z.number().int().describe("Records in the file from startAt on."),
  batches: z.number().int().describe("Upsert requests sent (0 for a dry run or a file with bad records)."),
  upserted: upsertedField,
  failed: z.number().int().describe("Records not written (bad records included when the file was refused)."),
  seconds: z.number().describe("Wall-clock time of the whole call."),
  dryRun: z.boolean().describe("True when only the check ran."),
  landed: z
    .array(z.object({ first: z.number().int().describe("First line/row."), last: z.number().int().describe("Last line/row, inclusive.") }))
    .describe("Line (JSONL) or row (Parquet) ranges whose records are on the service."),
  resumeStartAt: z.number().int().optional().describe("When the import stopped: the startAt that resumes it. Absent when every record landed."),
  badRecords: z.number().int().describe("Records that failed the checks (then nothing was written)."),
  problems: z
    .array(
      z.object({
        position: z.number().int().describe("Line (JSONL) or row (Parquet) number, 1-based."),
        id: z.string().optional().describe("The record's id, when it could be read."),
        problem: z.string().describe("What is wrong with it."),
      }),
    )
    .describe(`The first ${MAX_SHOWN} bad records.`),
  failures: failuresField("One entry per distinct write failure."),
};
type Structured = z.output<z.ZodObject<typeof Outcome>>;

const HEADERS = ["index", "namespace", "file", "format", "records", "batches", "upserted", "failed", "seconds"];
const row = (s: Structured) => [s.index, namespaceName(s.namespace), s.file, s.format, s.records, s.batches, s.upserted, s.failed, s.seconds.toFixed(2)];
const ranges = (unit: string, list: { first: number; last: number }[]) =>
  list.length === 0 ? "none" : `${unit}s ${list.map((r) => (r.first === r.last ? `${r.first}` : `${r.first}–${r.last}`)).join(", ")}`;

/** Text from the file (a field name, a JSON error) stays on its line: control characters are written escaped. */
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

function badRecordsText(check: FileCheck, s: Structured, unit: string): string {
  const lines = check.shown.map((b) => `- ${unit} ${b.position}${b.id !== undefined ? ` (id ${JSON.stringify(b.id)})` : ""}: ${oneLine(b.problem)}`);
  if (check.bad > check.shown.length) lines.push(`- … and ${check.bad - check.shown.length} more bad records (the first ${MAX_SHOWN} are listed)`);
  return refusalText({
    problem: `${check.bad} of ${check.records} records in ${oneLine(s.file)} are not valid for index ${JSON.stringify(s.index)}:\n${lines.join("\n")}`,
    untouched: "written",
    next: `fix those ${unit}s and call import_vectors again (dryRun: true checks the file without writing).`,
  });
}

/** A file of text records for an index that embeds text (src/ingest/text-import.ts): JSONL only. */
async function textRecords(source: RecordSource, field: string, index: string, o: { startAt: number; maxShown: number; signal: AbortSignal }): Promise<TextFile> {
  if (source.format !== "jsonl") {
    throw new ToolError({
      problem: `Index ${JSON.stringify(index)} embeds the text of its field "${field}": it takes a JSONL file of text records (one upsert_records record a line: _id, "${field}", other fields), not Parquet`,
      untouched: "written",
    });
  }
  return readTextFile(source.file, field, o);
}

/** When the file holds more text records than one call takes: the result names the startAt of the next part. */
function moreToImport<R extends { structured: Structured; table: string; isError?: boolean }>(result: R, nextStartAt: number | undefined): R {
  if (nextStartAt === undefined || result.isError) return result;
  result.structured.resumeStartAt = nextStartAt;
  return { ...result, table: `${result.table}\n\nThe file holds more records than one call imports (${MAX_TEXT_RECORDS.toLocaleString("en-US")}). Next step: call import_vectors again with startAt: ${nextStartAt}.` };
}

/** Loaded on the first call, not at start-up (src/ingest/import-file.ts). */
const ingest = () => import("../../src/ingest/import-file.js");

/** The file opened once (safe-open.ts) and its source, which owns it from then on (closing it on failure too). */
async function open(path: string, roots: string[], format: "jsonl" | "parquet" | undefined): Promise<RecordSource> {
  const opened = await openAllowedFile(path, roots);
  if (!opened.ok) throw new ToolError({ problem: opened.message, untouched: "read" });
  const file: OpenedFile = opened.file;
  try {
    return await (await ingest()).openSource(file, format);
  } catch (err) {
    throw new ToolError({ problem: `Cannot import ${file.realPath}: ${err instanceof Error ? err.message : String(err)}`, untouched: "written" });
  }
}

export default defineTool({
  name: "import_vectors",
  title: "Import vectors from a file",
  description:
    "Write every record of a JSONL file (an upsert_vectors record a line, or upsert_records' for an index that embeds " +
    "text) or Parquet file (columns id, values, sparse_values, metadata as JSON text) from an allowed folder into an " +
    "index. All checked first; a stopped import names the startAt that resumes.",
  inputSchema: {
    index: indexArg(undefined, RULES),
    namespace: namespaceArg(undefined, RULES),
    path: z
      .string()
      .min(1, rule("give the path of a .jsonl or .parquet file"))
      .max(4096, rule("paths are at most 4096 characters"))
      .describe("Absolute, or relative to the first allowed folder."),
    format: z
      .enum(["jsonl", "parquet"], rule('format is "jsonl" or "parquet"'))
      .optional()
      .describe("Default: by extension."),
    startAt: wholeNumberArg(1, Number.MAX_SAFE_INTEGER, rule("startAt is a whole line or row number, 1 or more"))
      .optional()
      .describe("First line or row, 1-based."),
    dryRun: z.boolean().optional().describe("Only check the file."),
  },
  outputSchema: Outcome,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run({ index, namespace = "", path, format, startAt = 1, dryRun = false }, ctx) {
    const started = performance.now();
    const { service, signal } = ctx;
    // Asked before a slot is taken: in the 2026-07-28 era the client's roots come back with the call's next round.
    const roots = await ctx.allowedRoots();
    // A few imports at a time (each may run worker threads and keep batches in flight); the others wait their turn.
    const release = await importSlot(signal, (ahead) => ctx.log.info(`import_vectors of ${path} waits for ${ahead} earlier import(s) to finish`));
    const source = await open(path, roots, format).catch((err: unknown) => {
      release();
      throw err;
    });
    try {
      const unit = source.format === "parquet" ? "row" : "line";
      const checked = async (model: IndexModel): Promise<FileCheck> => {
        try {
          return await (await ingest()).checkFile(source, model, { startAt, signal, maxShown: MAX_SHOWN, unit });
        } catch (err) {
          if (signal.aborted) throw err;
          throw new ToolError({ problem: `Cannot read ${source.path}: ${err instanceof Error ? err.message : String(err)}`, untouched: "written" });
        }
      };
      const model = await writableIndex(service, index, signal);
      const field = textField(model);
      const text = field === undefined ? undefined : await textRecords(source, field, index, { startAt, maxShown: MAX_SHOWN, signal });
      let check = text?.check ?? (await checked(model));
      if (check.bad > 0 && text === undefined) {
        // The cached record may be stale (the index was created again elsewhere with other settings): when a fresh
        // one differs in what the check looks at, the file is judged against that.
        service.hosts.forget(index);
        const fresh = await writableIndex(service, index, signal);
        if (fresh.dimension !== model.dimension || fresh.metric !== model.metric || fresh.vector_type !== model.vector_type) {
          check = await checked(fresh);
        }
      }
      if (check.records === 0) {
        throw new ToolError(
          startAt > 1
            ? { problem: `${source.path} has no records from ${unit} ${startAt} on`, untouched: "written", next: "check startAt." }
            : { problem: `${source.path} has no records`, untouched: "written", next: "check that this is the right file." },
        );
      }
      const s: Structured = {
        index, namespace, file: source.path, format: source.format, startAt, records: check.records,
        batches: 0, upserted: 0, failed: 0, seconds: 0, dryRun, landed: [], badRecords: check.bad,
        problems: check.shown.map((b) => ({ position: b.position, ...(b.id !== undefined && { id: b.id }), problem: b.problem })), failures: [],
      };
      const seconds = () => Math.round((performance.now() - started) / 10) / 100;
      if (check.bad > 0) {
        Object.assign(s, { failed: check.records, seconds: seconds() });
        return { structured: s, isError: true, table: `${badRecordsText(check, s, unit)}\n\n${markdownTable(HEADERS, [row(s)])}` };
      }
      if (dryRun) {
        s.seconds = seconds();
        return {
          structured: s,
          table:
            `Dry run: all ${check.records} records of ${s.file} (from ${unit} ${startAt}) are valid for index ${JSON.stringify(index)}; ` +
            `nothing was written.\n\n${markdownTable(HEADERS, [row(s)])}`,
          note: "Next step: call import_vectors again without dryRun to write them.",
        };
      }

      const total = check.records;
      const onProgress = (done: number) => ctx.progress(done, total, `${done} of ${total} records written`);
      const finishing = { total, unit, startAt, log: ctx.log, hosted: isHostedService(ctx.config) };
      if (text !== undefined) {
        const outcome = await runTextUpsert({ service, index, namespace, records: text.records, concurrency: ctx.config.concurrency, signal, stopSending: ctx.stopping, onProgress });
        return moreToImport(finish(s, outcome, text.positions, { ...finishing, seconds: seconds() }), text.nextStartAt);
      }
      const { PositionMap, uploadInput } = await ingest();
      const positions = new PositionMap();
      const outcome = await runUpsert({
        service, index, namespace, concurrency: ctx.config.concurrency, signal, stopSending: ctx.stopping,
        records: uploadInput(source, { startAt, namespace, positions }),
        onProgress,
      });
      return finish(s, outcome, positions, { ...finishing, seconds: seconds() });
    } finally {
      // After a cancel a read may still be pending in the source; closing must not wait for it.
      const closing = source.close().catch(() => {});
      if (!signal.aborted) await closing;
      release();
    }
  },
});

function finish(
  s: Structured,
  outcome: UpsertOutcome,
  positions: PositionMap,
  o: { total: number; unit: string; startAt: number; seconds: number; log: { warning(m: string): void }; hosted: boolean },
) {
  const landedCount = outcome.landed.reduce((n, r) => n + (r.end - r.start), 0);
  Object.assign(s, {
    batches: outcome.batches,
    upserted: outcome.upserted,
    failed: Math.max(0, o.total - landedCount), // (a file that grew since the check could land more than it had)
    seconds: o.seconds,
    landed: positions.toPositionRanges(outcome.landed),
    failures: distinctFailures(outcome.failures),
  });
  const table = markdownTable(HEADERS, [row(s)]);
  if (s.failed === 0) {
    return { structured: s, table: `All ${o.total} records were written (${ranges(o.unit, s.landed)}).\n\n${table}`, ...(o.hosted && { note: FRESHNESS_NOTE }) };
  }
  // Resume from the first record that did not land; records past it that landed (batches that were in flight) are
  // simply sent again — upserts overwrite, so nothing is skipped and nothing but those batches is re-sent.
  const r = outcome.resumeAt;
  s.resumeStartAt = r < positions.size ? positions.positionOf(r) : r === 0 ? o.startAt : positions.positionOf(r - 1) + 1;
  const reasons = s.failures.map((f) => `- ${f.records} records: ${quotedLine(f.message)}`);
  const unsent = s.failed - s.failures.reduce((n, f) => n + f.records, 0);
  const why = outcome.aborted ? "the call was cancelled" : outcome.stopped ? "the server stopped the call (shutting down, or the session was closed)" : outcome.inputError ? `reading the file failed: ${outcome.inputError}` : "sending stops after a request fails for good";
  if (unsent > 0) reasons.push(`- ${unsent} records: not sent, ${why}`);
  else if (outcome.aborted || outcome.stopped || outcome.inputError) reasons.push(`- ${why}`);
  const text =
    `The import stopped: ${s.failed} of ${o.total} records were NOT written (${landedCount} were).\n` +
    `Landed: ${ranges(o.unit, s.landed)}.\n\n${table}\n\nWhy:\n${reasons.join("\n")}`;
  const note =
    `Next step: call import_vectors again with the same index, namespace and path and startAt: ${s.resumeStartAt} ` +
    `(it reads from ${o.unit} ${s.resumeStartAt} on; upserts are idempotent, so records that landed after it are only overwritten).`;
  // A cancelled call's result never reaches the client (the protocol drops it): the log keeps the resume point.
  if (outcome.aborted) o.log.warning(`import_vectors of ${s.file} cancelled: ${landedCount} of ${o.total} records landed (${ranges(o.unit, s.landed)}); resume with startAt ${s.resumeStartAt}`);
  return { structured: s, isError: true, table: text, note };
}
