// What the two tools that write records share (upsert_vectors, import_vectors): the index must be ready before
// anything is checked or sent, and the result names where the records went and why any failed.
import { z } from "zod";
import type { IndexModel } from "../../api/records.js";
import type { Service } from "../../api/service.js";
import { readyIndex } from "../index-host.js";

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
