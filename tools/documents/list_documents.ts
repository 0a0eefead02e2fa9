// list_documents — the ids of a documents index's namespace, a page at a time, optionally by prefix.
import { z } from "zod";
import { indexArg, namespaceArg, ruleError, wholeNumberArg } from "../../src/tool-kit/args/schema.js";
import { documentIndex, speakingDocuments } from "../../src/tool-kit/documents/document-index.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { namespaceOfIndex } from "../../src/tool-kit/results/index-summary.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";
import { namespaceName } from "../../src/common/namespace-name.js";

const RULES = { untouched: "read" } as const;

export default defineTool({
  name: "list_documents",
  title: "List documents",
  description: "List the document ids of a documents index, sorted, a page at a time, optionally by id prefix.",
  inputSchema: {
    index: indexArg(undefined, RULES),
    namespace: namespaceArg(undefined, RULES),
    prefix: z.string().min(1).max(512).optional().describe("Only ids that start with it."),
    limit: wholeNumberArg(1, 100, ruleError("limit is a whole number from 1 to 100", RULES)).optional().describe("Default 100."),
    paginationToken: z.string().min(1).max(2000).optional().describe("From the previous page."),
  },
  outputSchema: {
    index: z.string(),
    namespace: z.string(),
    ids: z.array(z.string()),
    next: z.string().optional().describe("The next page's paginationToken."),
  },
  annotations: READ_ONLY,
  async run({ index, namespace = "", prefix, limit, paginationToken }, { service, signal }) {
    await documentIndex(service, index, signal, "read");
    const page = await onIndexHost(service, index, signal, (model) =>
      speakingDocuments("read", () =>
        service.documents.list(model.host, namespaceName(namespace), { ...(prefix && { prefix }), limit: limit ?? 100, ...(paginationToken && { pagination_token: paginationToken }) }, signal),
      ),
    );
    const where = namespaceOfIndex(namespace, index);
    const structured = { index, namespace, ids: page.ids, ...(page.next && { next: page.next }) };
    if (page.ids.length === 0) return { structured, table: `No documents${prefix ? ` with ids starting ${JSON.stringify(prefix)}` : ""} in ${where}.` };
    const table = `${page.ids.length} document ${page.ids.length === 1 ? "id" : "ids"} in ${where}${prefix ? ` starting ${JSON.stringify(prefix)}` : ""}:\n\n${page.ids.join("\n")}`;
    return { structured, table, ...(page.next && { note: `More ids: call again with "paginationToken": ${JSON.stringify(page.next)}.` }) };
  },
});
