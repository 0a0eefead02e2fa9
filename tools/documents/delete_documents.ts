// delete_documents — removes documents of one namespace: by ids, by metadata filter, or all. Exists only with
// --allow-destructive; by filter or all, the person confirms first (when the client can ask), seeing how many go.
import { z } from "zod";
import { checkFilter, filterSchema } from "../../src/tool-kit/args/filter.js";
import { indexArg, namespaceArg, recordIdArg } from "../../src/tool-kit/args/schema.js";
import { confirmDestruction } from "../../src/tool-kit/confirm.js";
import { documentIndex, speakingDocuments } from "../../src/tool-kit/documents/document-index.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { namespaceOfIndex } from "../../src/tool-kit/results/index-summary.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { defineTool } from "../../src/tool-kit/tool.js";
import type { Service } from "../../src/api/service.js";
import { namespaceName } from "../../src/common/namespace-name.js";

const RULES = { untouched: "deleted" } as const;
const refuse = (problem: string) => new ToolError({ problem, untouched: "deleted" });

export default defineTool({
  name: "delete_documents",
  title: "Delete documents",
  description: "Permanently delete documents of one namespace: by ids, by metadata filter, or all (one of them). Only when the user asked.",
  inputSchema: {
    index: indexArg(undefined, RULES),
    namespace: namespaceArg(undefined, RULES),
    ids: z.array(recordIdArg(RULES)).min(1).max(1000).optional(),
    filter: filterSchema("every matching document is deleted").optional(),
    deleteAll: z.boolean().optional().describe("true: every document in the namespace."),
  },
  outputSchema: {
    index: z.string(),
    namespace: z.string(),
    by: z.enum(["ids", "filter", "deleteAll"]),
    found: z.number().int().optional().describe("ids: how many existed."),
    missing: z.array(z.string()).optional().describe("ids: those that did not exist."),
    matched: z.number().int().optional().describe("filter / deleteAll: documents that matched."),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  requiresAllowDestructive: true,
  async run({ index, namespace = "", ids, filter, deleteAll }, ctx) {
    const { service, signal } = ctx;
    const given = [ids && "ids", filter && "filter", deleteAll === true && "deleteAll"].filter((x): x is "ids" | "filter" | "deleteAll" => typeof x === "string");
    if (given.length !== 1) throw refuse(given.length === 0 ? "Say what to delete: give ids, filter or deleteAll: true (one of them)" : `Give one of ids, filter or deleteAll; this call gave ${given.join(" and ")}`);
    const by = given[0];
    if (filter && Object.keys(filter).length === 0) throw refuse("The filter is empty, which would match every document. To delete them all, give deleteAll: true instead");
    checkFilter(filter);
    await documentIndex(service, index, signal, "deleted");
    const ns = namespaceName(namespace);
    const where = namespaceOfIndex(namespace, index);
    const outcome = await onIndexHost(service, index, signal, async (model) => {
      if (ids) {
        const unique = [...new Set(ids)];
        const found = (await speakingDocuments("deleted", () => service.documents.fetch(model.host, ns, { ids: unique, include_fields: ["_id"] }, signal))).documents.map((d) => d._id);
        await speakingDocuments("deleted", () => service.documents.delete(model.host, ns, { ids: unique }, signal));
        return { found: found.length, missing: unique.filter((id) => !found.includes(id)) };
      }
      // How many go: the documents the filter (or anything, for all) selects, counted a page of ids at a time.
      const matching = await countDocuments(ctx, model.host, ns, filter);
      await confirmDestruction(ctx, {
        action: `Delete ${filter ? "every document matching the filter" : "every document"} in ${where}`,
        loses: `${matching === undefined ? "the matching documents" : `${matching} ${matching === 1 ? "document" : "documents"}`} in ${where}`,
        name: index,
      });
      const matched = await speakingDocuments("deleted", () => service.documents.delete(model.host, ns, filter ? { filter } : { delete_all: true }, signal));
      const counted = matched ?? matching;
      return counted === undefined ? {} : { matched: counted };
    });
    const structured: { index: string; namespace: string; by: typeof by; found?: number; missing?: string[]; matched?: number } = { index, namespace, by, ...outcome };
    const { found, missing, matched } = structured;
    const what =
      found !== undefined && missing !== undefined
        ? `${found} of the ${new Set(ids).size} ids given${missing.length ? ` (not found: ${missing.join(", ")})` : ""}`
        : `${matched === undefined ? "the" : matched} ${filter ? "documents matching the filter" : "documents"}`;
    return { structured, table: `Deleted ${what} from ${where}.` };
  },
});

/** Documents a filter selects (every one, without a filter), up to 100,000; undefined past that or when unreadable. */
async function countDocuments(ctx: { service: Service; signal: AbortSignal }, host: string, namespace: string, filter: Record<string, unknown> | undefined): Promise<number | undefined> {
  let count = 0;
  let token: string | undefined;
  try {
    do {
      if (filter) {
        const page = await ctx.service.documents.fetch(host, namespace, { filter, include_fields: ["_id"], limit: 1000, ...(token && { pagination_token: token }) }, ctx.signal);
        count += page.documents.length;
        token = page.next;
      } else {
        const page = await ctx.service.documents.list(host, namespace, { limit: 100, ...(token && { pagination_token: token }) }, ctx.signal);
        count += page.ids.length;
        token = page.next;
      }
    } while (token && count < 100_000);
    return token ? undefined : count;
  } catch {
    return undefined;
  }
}
