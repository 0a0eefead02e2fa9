// What the two tools that write records share (upsert_vectors, import_vectors): the index must be ready before
// anything is checked or sent, and the result names where the records went and why any failed.
import { z } from "zod";
import { markdownTable, quotedLine } from "../format/table.js";
import type { IndexModel } from "../../api/records.js";
import type { Service } from "../../api/service.js";
import { readyIndex } from "../index-host.js";
import type { Refusal } from "../refusal.js";
import type { RecordProblem } from "../../ingest/check.js";
import type { UpsertOutcome } from "../../ingest/upsert.js";
import { namespaceName } from "../../common/namespace-name.js";

/** The index to write to, resolved to its host; a tool error when it is not ready yet. */
export function writableIndex(service: Service, index: string, signal: AbortSignal): Promise<IndexModel> {
  return readyIndex(service, index, signal, "written");
}

/** The first fields of a write's result. */
export const writtenTo = {
  index: z.string().describe("Index written to."),
  namespace: z.string().describe('Namespace written to ("" is the default namespace).'),
};

export const upsertedField = z.number().int().describe("Sum of the service's upsertedCount over all requests.");

/** The failed requests of a write, one entry per distinct message. */
export function failuresField(description: string) {
  return z
    .array(z.object({ records: z.number().int().describe("Records in the failed requests."), message: z.string().describe("Why they failed.") }))
    .describe(description);
}

/** Failed batches grouped by message: "250 records: HTTP 503 …" rather than one line per batch. */
export function distinctFailures(failures: { ids: string[]; message: string }[]): { records: number; message: string }[] {
  const byMessage = new Map<string, number>();
  for (const f of failures) byMessage.set(f.message, (byMessage.get(f.message) ?? 0) + f.ids.length);
  return [...byMessage].map(([message, records]) => ({ records, message }));
}

const MAX_PROBLEMS_SHOWN = 50;

/** The refusal of a call whose records fail the checks: every problem (the first 50) by position, id, field and rule. */
export function problemsRefusal(tool: string, problems: RecordProblem[], index: string): Refusal {
  const lines = problems.slice(0, MAX_PROBLEMS_SHOWN).map((p) => `- position ${p.position} (id ${JSON.stringify(p.id)}): ${p.field} ${p.rule}`);
  if (problems.length > MAX_PROBLEMS_SHOWN) lines.push(`- … and ${problems.length - MAX_PROBLEMS_SHOWN} more`);
  const n = problems.length;
  return {
    problem: `${n} ${n === 1 ? "problem" : "problems"} with the records for index ${JSON.stringify(index)}:\n${lines.join("\n")}`,
    untouched: "written",
    next: `fix ${n === 1 ? "that record" : "those records"} and call ${tool} again with the whole list.`,
  };
}

/** The isError text of a write where some records did not land: how many, why, exactly which ids, the next step. */
export function notWrittenText(
  tool: string,
  table: string,
  outcome: UpsertOutcome,
  failures: { records: number; message: string }[],
): { table: string; note: string } {
  const reasons = failures.map((f) => `- ${f.records} records: ${quotedLine(f.message)}`);
  if (outcome.inputError) reasons.push(`- reading the records: ${quotedLine(outcome.inputError)}`);
  if (outcome.aborted) reasons.push("- the call was cancelled");
  if (outcome.stopped) reasons.push("- the server stopped the call (it is shutting down, or the session was closed)");
  return {
    table:
      `${outcome.failedIds.length} of ${outcome.records} records were NOT written (${outcome.upserted} were).\n\n${table}\n\n` +
      `Why:\n${reasons.join("\n")}\n\nIds not written: ${outcome.failedIds.join(", ")}`,
    note: `Next step: call ${tool} again with just those records (upserts are idempotent).`,
  };
}

/** The result of an upsert call (upsert_vectors, upsert_records): the counts and ids as structuredContent, and one row. */
export function upsertResult(index: string, namespace: string, outcome: UpsertOutcome) {
  const structured = {
    index,
    namespace,
    records: outcome.records,
    batches: outcome.batches,
    upserted: outcome.upserted,
    failed: outcome.failedIds.length,
    seconds: Math.round(outcome.seconds * 100) / 100,
    failedIds: outcome.failedIds,
    failures: distinctFailures(outcome.failures),
  };
  const table = markdownTable(
    ["index", "namespace", "records", "batches", "upserted", "failed", "seconds"],
    [[index, namespaceName(namespace), outcome.records, outcome.batches, outcome.upserted, structured.failed, structured.seconds.toFixed(2)]],
  );
  return { structured, table };
}
