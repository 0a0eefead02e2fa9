// upsert_documents — writes documents (an id, the text fields, any metadata) to a documents index, in requests of at
// most 1000 documents and 2 MB; when the index has a meaning field, the text is embedded first and written with it.
import { z } from "zod";
import type { Document } from "../../src/api/documents.js";
import { indexArg, namespaceArg } from "../../src/tool-kit/args/schema.js";
import { documentIndex, speakingDocuments } from "../../src/tool-kit/documents/document-index.js";
import { embedForMeaning, meaningText } from "../../src/tool-kit/documents/meaning.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { namespaceOfIndex } from "../../src/tool-kit/results/index-summary.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { defineTool } from "../../src/tool-kit/tool.js";
import { namespaceName } from "../../src/common/namespace-name.js";

const RULES = { untouched: "written" } as const;
const MAX_DOCUMENTS = 1000;
/** Under the service's 2 MB a request, with room for the envelope. */
const MAX_REQUEST_BYTES = 1_900_000;

/** The id of a document as given ("id" or the API's "_id"), checked; the rest are its fields. */
function toDocument(given: Record<string, unknown>, at: number): Document {
  const { id, _id, ...fields } = given;
  const value = id ?? _id;
  if (id !== undefined && _id !== undefined && id !== _id) throw new ToolError({ problem: `documents[${at}] has both id and _id, with different values`, untouched: "written" });
  if (typeof value !== "string" || value.length === 0 || value.length > 512 || !/^[\x01-\x7f]+$/.test(value)) {
    throw new ToolError({ problem: `documents[${at}].id must be 1–512 ASCII characters (got ${JSON.stringify(value) ?? "none"})`, untouched: "written" });
  }
  return { _id: value, ...fields };
}

/** Requests of at most 1000 documents and MAX_REQUEST_BYTES. */
function batches(documents: readonly Document[]): Document[][] {
  const out: Document[][] = [];
  let current: Document[] = [];
  let bytes = 0;
  for (const d of documents) {
    const size = Buffer.byteLength(JSON.stringify(d)) + 1;
    if (current.length > 0 && (current.length === MAX_DOCUMENTS || bytes + size > MAX_REQUEST_BYTES)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(d);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

export default defineTool({
  name: "upsert_documents",
  title: "Upsert documents",
  description:
    'Write documents to a documents index: each {"id": …, "<text field>": "…", other fields: filterable metadata}. Same id overwrites.',
  inputSchema: {
    index: indexArg(undefined, RULES),
    namespace: namespaceArg(undefined, RULES),
    documents: z.array(z.record(z.string(), z.unknown())).min(1).max(10_000).describe("The documents, 1–10000."),
  },
  outputSchema: {
    index: z.string(),
    namespace: z.string(),
    written: z.number().int().describe("Documents accepted."),
    failed: z.number().int(),
    failedIds: z.array(z.string()).describe("Ids not written (at most 100)."),
    embedded: z.boolean().describe("Whether the text was embedded for the meaning field."),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run({ index, namespace = "", documents }, { service, signal, progress }) {
    const docs = documents.map(toDocument);
    const { view } = await documentIndex(service, index, signal, "written");
    const meaning = view.meaning;
    if (meaning && docs.some((d) => meaning.field in d)) {
      throw new ToolError({ problem: `The ${meaning.field} field is filled by the tools from ${meaning.from.join(", ")}: leave it out of the documents`, untouched: "written" });
    }
    if (meaning) {
      const texts = docs.map((d) => meaningText(meaning, d));
      const withText = docs.flatMap((d, i) => (texts[i] ? [i] : []));
      const vectors = await embedForMeaning(service, meaning, withText.map((i) => texts[i]), "passage", signal);
      withText.forEach((i, k) => (docs[i][meaning.field] = vectors[k]));
    }
    const groups = batches(docs);
    let written = 0;
    const failed: string[] = [];
    let firstError: unknown;
    await onIndexHost(service, index, signal, async (model) => {
      for (const [n, group] of groups.entries()) {
        try {
          written += await speakingDocuments("written", () => service.documents.upsert(model.host, namespaceName(namespace), group, signal));
        } catch (err) {
          // Nothing written yet: the call fails whole (onIndexHost tries a moved host again; a refusal reads as it is).
          if (signal.aborted || written === 0) throw err;
          firstError ??= err;
          failed.push(...group.map((d) => d._id));
        }
        progress(n + 1, groups.length, `${written} of ${docs.length} documents written`);
      }
    });
    const structured = { index, namespace, written, failed: failed.length, failedIds: failed.slice(0, 100), embedded: meaning !== undefined };
    const table = markdownTable(["index", "namespace", "written", "failed", "requests"], [[index, namespaceName(namespace), written, failed.length, groups.length]]);
    const head = `Wrote ${written} of ${docs.length} documents to ${namespaceOfIndex(namespace, index)}${meaning ? ` (text embedded by ${meaning.model} for meaning)` : ""}.`;
    if (failed.length > 0) {
      const why = firstError instanceof Error ? firstError.message : String(firstError);
      return { structured, table: `${head}\n\n${table}`, note: `${failed.length} were not written: ${why}\nNext step: call upsert_documents again with those documents.`, isError: true };
    }
    return { structured, table: `${head}\n\n${table}`, note: "Next step: search_documents finds them (a write is searchable within seconds on the hosted service)." };
  },
});
