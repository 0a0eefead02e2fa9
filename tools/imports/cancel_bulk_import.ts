// cancel_bulk_import — stops a Pending or InProgress bulk import; the records it already imported stay.
import { z } from "zod";
import { ServiceError } from "../../src/api/errors.js";
import { indexArg, ruleError, textArg } from "../../src/tool-kit/args/schema.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { ImportSummary, summarizeImport } from "../../src/tool-kit/results/admin-summaries.js";
import { refuseMissing } from "../../src/tool-kit/missing-resource.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { defineTool } from "../../src/tool-kit/tool.js";

const UNTOUCHED = "changed";
const RULES = { untouched: UNTOUCHED } as const;

export default defineTool({
  name: "cancel_bulk_import",
  title: "Cancel bulk import",
  description: "Cancel a Pending or InProgress bulk import. Records it already imported stay in the index.",
  inputSchema: {
    index: indexArg("Name of the index.", RULES),
    id: textArg(1, 1000, ruleError("import ids are 1–1000 characters", RULES)).describe("The import id."),
  },
  outputSchema: { index: z.string().describe("The index."), import: ImportSummary.describe("The import after the cancel.") },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run({ index, id }, { service, signal }) {
    const after = await onIndexHost(service, index, signal, async (model) => {
      try {
        await service.adminData.cancelImport(model.host, id, signal);
      } catch (e) {
        if (e instanceof ServiceError && e.status === 400) {
          const now = await service.adminData.describeImport(model.host, id, signal).catch(() => undefined);
          throw new ToolError({ problem: `Import ${JSON.stringify(id)} cannot be cancelled: it has already ended${now ? ` (status ${now.status})` : ""}`, untouched: UNTOUCHED });
        }
        refuseMissing(e, { resource: "import", name: id, index }, UNTOUCHED);
      }
      return service.adminData.describeImport(model.host, id, signal);
    });
    const found = summarizeImport(after);
    const table = markdownTable(["id", "status", "records imported"], [[found.id, found.status, found.recordsImported]]);
    return { structured: { index, import: found }, table: `Bulk import ${JSON.stringify(id)} cancelled; the records it imported stay.\n\n${table}` };
  },
});
