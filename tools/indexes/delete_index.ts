// delete_index — removes an index and every record in it. Exists only with --allow-destructive. An index with deletion
// protection is answered with how to turn it off.
import { z } from "zod";
import { ServiceError } from "../../src/api/errors.js";
import type { Refusal } from "../../src/tool-kit/refusal.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { IndexSummary, summarizeIndex, where } from "../../src/tool-kit/results/index-summary.js";
import { indexArg } from "../../src/tool-kit/args/schema.js";
import { defineTool } from "../../src/tool-kit/tool.js";
import { confirmDestruction, recordsIn } from "../../src/tool-kit/confirm.js";

export default defineTool({
  name: "delete_index",
  title: "Delete index",
  description:
    "Permanently delete an index and all its records; collections made from it are kept. Use it only when the user " +
    "asked. An index with deletion protection is refused.",
  inputSchema: {
    index: indexArg("Index to delete."),
  },
  outputSchema: {
    deleted: IndexSummary.describe("The index as it was just before it was deleted."),
    records: z.number().int().optional().describe("Records it held, in all namespaces (absent when they could not be counted)."),
    namespaces: z.number().int().optional().describe("Namespaces it had."),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  requiresAllowDestructive: true,
  async run({ index }, ctx) {
    const { service, signal, log } = ctx;
    const model = await service.control.describeIndex(index, signal);
    const name = JSON.stringify(index);
    if (model.deletion_protection === "enabled") throw new ToolError(protectedRefusal(index));
    let counts: { records: number; namespaces: number } | undefined;
    if (model.status.ready) {
      try {
        const stats = await service.data.describeIndexStats(model.host, signal);
        const namespaces = Object.keys(stats.namespaces ?? {}).length;
        counts = { records: stats.totalVectorCount ?? 0, namespaces };
      } catch (err) {
        log.debug(`delete_index: the records of ${index} could not be counted first: ${String(err)}`);
      }
    }
    await confirmDestruction(ctx, {
      action: `Delete index ${name}`,
      loses: `index ${name}: ${recordsIn(counts?.records, counts?.namespaces)}`,
      name: index,
    });
    try {
      await service.control.deleteIndex(index, signal);
    } catch (err) {
      if (err instanceof ServiceError && (err.status === 403 || err.code === "FORBIDDEN") && /deletion protection/i.test(err.serviceMessage)) {
        throw new ToolError(protectedRefusal(index));
      }
      throw err;
    }
    service.hosts.forget(index);
    const deleted = summarizeIndex(model);
    const table = markdownTable(
      ["name", "kind", "dimension", "metric", "where", "records", "namespaces"],
      [[deleted.name, deleted.kind, deleted.dimension, deleted.metric, where(deleted), counts?.records, counts?.namespaces]],
    );
    const held = counts ? ` It held ${counts.records} ${counts.records === 1 ? "record" : "records"} in ${counts.namespaces} ${counts.namespaces === 1 ? "namespace" : "namespaces"}.` : "";
    return {
      structured: { deleted, ...(counts && { records: counts.records, namespaces: counts.namespaces }) },
      table: `Index ${name} deleted, with every record in it.${held}\n\n${table}\n\nThe service may show it as Terminating for a short while.`,
    };
  },
});

function protectedRefusal(index: string): Refusal {
  return {
    problem: `Index ${JSON.stringify(index)} has deletion protection enabled, so it was NOT deleted`,
    untouched: "changed",
    next:
      "only if the user really wants it gone, turn deletion protection off first with configure_index " +
      `{"index": ${JSON.stringify(index)}, "deletionProtection": "disabled"} — then call delete_index again.`,
  };
}
