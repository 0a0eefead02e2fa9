// update_documents — changes fields of documents: one document by id, or every document matching a metadata filter
// (set and/or remove fields). When a changed text field feeds the meaning field, the document's text is embedded again.
import { z } from "zod";
import { checkFilter, filterSchema } from "../../src/tool-kit/args/filter.js";
import { indexArg, namespaceArg, recordIdArg } from "../../src/tool-kit/args/schema.js";
import { documentIndex, speakingDocuments } from "../../src/tool-kit/documents/document-index.js";
import { embedForMeaning, meaningText } from "../../src/tool-kit/documents/meaning.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { namespaceOfIndex } from "../../src/tool-kit/results/index-summary.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { defineTool } from "../../src/tool-kit/tool.js";
import { namespaceName } from "../../src/common/namespace-name.js";

const RULES = { untouched: "changed" } as const;
const refuse = (problem: string) => new ToolError({ problem, untouched: "changed" });

export default defineTool({
  name: "update_documents",
  title: "Update documents",
  description: "Set or remove fields of one document (id) or of every document matching a metadata filter; other fields stay.",
  inputSchema: {
    index: indexArg(undefined, RULES),
    namespace: namespaceArg(undefined, RULES),
    id: recordIdArg(RULES).optional(),
    filter: filterSchema("every matching document is changed").optional(),
    set: z.record(z.string().min(1).max(64), z.unknown()).optional().describe('Fields to set, e.g. {"status": "done"}.'),
    remove: z.array(z.string().min(1).max(64)).min(1).max(100).optional().describe("Fields to remove."),
  },
  outputSchema: {
    index: z.string(),
    namespace: z.string(),
    by: z.enum(["id", "filter"]),
    matched: z.number().int().optional().describe("filter: documents that matched, as the service counted them."),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run({ index, namespace = "", id, filter, set, remove }, { service, signal }) {
    if ((id === undefined) === (filter === undefined)) throw refuse("Give id (one document) or filter (every matching document), one of them");
    if (!set && !remove) throw refuse("Say what to change: set and/or remove");
    if (filter && Object.keys(filter).length === 0) throw refuse("The filter is empty, which would change every document");
    checkFilter(filter);
    const both = Object.keys(set ?? {}).filter((f) => remove?.includes(f));
    if (both.length > 0) throw refuse(`${both.join(", ")} is both set and removed`);
    const { view } = await documentIndex(service, index, signal, "changed");
    const meaning = view.meaning;
    if (meaning && (meaning.field in (set ?? {}) || remove?.includes(meaning.field))) throw refuse(`The ${meaning.field} field is filled by the tools from ${meaning.from.join(", ")}; change those fields instead`);
    const touchesMeaning = meaning !== undefined && meaning.from.some((f) => f in (set ?? {}) || remove?.includes(f));
    if (touchesMeaning && filter) throw refuse(`Changing ${meaning.from.join(", ")} by filter would leave their meaning stale: change those fields one document at a time (id)`);
    const ns = namespaceName(namespace);
    const matched = await onIndexHost(service, index, signal, async (model) => {
      if (id !== undefined) {
        const patch: Record<string, unknown> = { _id: id, ...set, ...(remove && { _remove_fields: remove }) };
        if (touchesMeaning) {
          const [current] = (await speakingDocuments("changed", () => service.documents.fetch(model.host, ns, { ids: [id], include_fields: meaning.from }, signal))).documents;
          if (!current) throw new ToolError({ problem: `No document ${JSON.stringify(id)} in ${namespaceOfIndex(namespace, index)}`, untouched: "changed" });
          const after = { ...current, ...set };
          for (const f of remove ?? []) delete after[f];
          const text = meaningText(meaning, after);
          if (text) patch[meaning.field] = (await embedForMeaning(service, meaning, [text], "passage", signal))[0];
          else patch._remove_fields = [...(remove ?? []), meaning.field];
        }
        return speakingDocuments("changed", () => service.documents.update(model.host, ns, { documents: [patch as { _id: string }] }, signal));
      }
      return speakingDocuments("changed", () => service.documents.update(model.host, ns, { filter, ...(set && { set_fields: set }), ...(remove && { remove_fields: remove }) }, signal));
    });
    const where = namespaceOfIndex(namespace, index);
    const what = [set && `set ${Object.keys(set).join(", ")}`, remove && `removed ${remove.join(", ")}`].filter(Boolean).join("; ");
    if (id !== undefined) return { structured: { index, namespace, by: "id" as const }, table: `Document ${JSON.stringify(id)} in ${where}: ${what}.` };
    return {
      structured: { index, namespace, by: "filter" as const, ...(matched !== undefined && { matched }) },
      table: `${matched === undefined ? "The documents" : `${matched} ${matched === 1 ? "document" : "documents"}`} matching the filter in ${where}: ${what}.`,
    };
  },
});
