// describe_bulk_import — one bulk import: status, percent, records imported, and the error if any.
import { z } from "zod";
import { indexArg, ruleError, textArg } from "../../src/tool-kit/args/schema.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { ImportSummary, summarizeImport } from "../../src/tool-kit/results/admin-summaries.js";
import { refuseMissing } from "../../src/tool-kit/missing-resource.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";

const RULES = { untouched: "read" } as const;

export default defineTool({
  name: "describe_bulk_import",
  title: "Describe bulk import",
  description: "Show one bulk import of an index: status (Pending, InProgress, Completed, Failed, Cancelled), percent, records imported, error.",
  inputSchema: {
    index: indexArg("Name of the index.", RULES),
    id: textArg(1, 1000, ruleError("import ids are 1–1000 characters", RULES)).describe("The import id."),
  },
  outputSchema: { index: z.string().describe("The index."), import: ImportSummary.describe("The import.") },
  annotations: READ_ONLY,
  async run({ index, id }, { service, signal }) {
    const found = summarizeImport(
      await onIndexHost(service, index, signal, (model) =>
        service.adminData.describeImport(model.host, id, signal).catch((e: unknown) => refuseMissing(e, { resource: "import", name: id, index })),
      ),
    );
    const table = markdownTable(["id", "status", "percent", "records imported", "error"], [[found.id, found.status, found.percentComplete, found.recordsImported, found.error]]);
    return { structured: { index, import: found }, table: `Bulk import of index ${JSON.stringify(index)}:\n\n${table}` };
  },
});
