// start_bulk_import — starts a bulk import of Parquet files (one directory per namespace) into an index; it runs in
// the background on the service (describe_bulk_import follows it).
import { z } from "zod";
import { indexArg, ruleError, textArg } from "../../src/tool-kit/args/schema.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { checkImportFolder } from "../../src/tool-kit/import-folder.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { defineTool } from "../../src/tool-kit/tool.js";

const RULES = { untouched: "created" } as const;

export default defineTool({
  name: "start_bulk_import",
  title: "Start bulk import",
  description:
    "Start importing Parquet files into an index in the background: uri is a directory with one sub-directory per namespace " +
    "(__default__ for the default one). Hosted: s3://, gs:// or Azure URLs; embedded local service: file:// under its --allow-dir.",
  inputSchema: {
    index: indexArg("Name of the serverless index.", RULES),
    uri: textArg(1, 1500, ruleError("uri is 1–1500 characters", RULES)).describe("The import directory, e.g. s3://bucket/dir or file:///data/dir."),
    integrationId: textArg(1, 1000, ruleError("integrationId is 1–1000 characters", RULES)).optional().describe("Storage integration for a private bucket (hosted only)."),
    errorMode: z.enum(["abort", "continue"]).optional().describe("On a bad record: continue (skip it, the default) or abort the import."),
  },
  outputSchema: { index: z.string().describe("The index."), id: z.string().describe("The import id; describe_bulk_import follows it.") },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  async run({ index, uri, integrationId, errorMode }, { service, signal, allowedRoots }) {
    await checkImportFolder(uri, await allowedRoots());
    const { id } = await onIndexHost(service, index, signal, (model) =>
      service.data.startImport(model.host, { uri, ...(integrationId && { integrationId }), ...(errorMode && { errorMode: { onError: errorMode } }) }, signal),
    );
    const table = markdownTable(["index", "import id", "uri"], [[index, id, uri]]);
    return { structured: { index, id }, table: `Bulk import started into index ${JSON.stringify(index)}:\n\n${table}\n\ndescribe_bulk_import shows its progress.` };
  },
});
