// delete_vectors — removes records from one namespace of an index: by id, by metadata filter, or all of them. Exists
// only with --allow-destructive. Answers with the namespace's record count before and after (describe_index_stats).
import { z } from "zod";
import type { IndexModel } from "../../src/api/records.js";
import type { Service } from "../../src/api/service.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { filterProblem, filterRefusal, filterSchema } from "../../src/tool-kit/args/filter.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { indexArg, namespaceArg, recordIdArg, ruleError } from "../../src/tool-kit/args/schema.js";
import { defineTool } from "../../src/tool-kit/tool.js";
import { FRESHNESS_NOTE, isHostedService } from "../../src/tool-kit/hosted-service.js";
import { confirmDestruction, recordsIn } from "../../src/tool-kit/confirm.js";
import { namespaceOfIndex } from "../../src/tool-kit/results/index-summary.js";
import { namespaceName } from "../../src/common/namespace-name.js";

const RULES = { untouched: "deleted" } as const;
const rule = (text: string) => ruleError(text, RULES);

/** Records per namespace, or undefined when the stats cannot be read (the counts are a courtesy). */
async function namespaceCounts(service: Service, model: IndexModel, signal: AbortSignal): Promise<Map<string, number> | undefined> {
  try {
    const stats = await service.data.describeIndexStats(model.host, signal);
    return new Map(Object.entries(stats.namespaces ?? {}).map(([name, ns]) => [name === "__default__" ? "" : name, ns.vectorCount ?? 0]));
  } catch {
    return undefined;
  }
}

const nsName = (namespace: string) => JSON.stringify(namespaceName(namespace));
/**
 * How many records of the namespace match the filter, when the service can say (the count is a courtesy). A
 * serverless index refuses describe_index_stats with a filter on the hosted service: it is asked for a dry-run update
 * by the same filter instead, which counts the matches and changes nothing.
 */
async function filterCount(service: Service, model: IndexModel, namespace: string, filter: Record<string, unknown>, signal: AbortSignal): Promise<number | undefined> {
  try {
    if (model.spec.serverless) return (await service.data.update(model.host, { namespace, filter, setMetadata: {}, dryRun: true }, signal)).matchedRecords;
    const stats = await service.data.describeIndexStats(model.host, signal, filter);
    return stats.namespaces?.[namespaceName(namespace)]?.vectorCount ?? stats.namespaces?.[namespace]?.vectorCount ?? 0;
  } catch {
    return undefined;
  }
}

export default defineTool({
  name: "delete_vectors",
  title: "Delete vectors",
  description:
    "Permanently delete records from one namespace of an index: by ids, by metadata filter, or all (exactly one of " +
    "them). Use it only when the user asked. Says how many records the namespace held before and after.",
  inputSchema: {
    index: indexArg(undefined, RULES),
    namespace: namespaceArg(undefined, RULES),
    ids: z
      .array(recordIdArg(RULES))
      .min(1, rule("give 1–1000 ids"))
      .max(1000, rule("give 1–1000 ids per call; split longer lists into several calls"))
      .optional()
      .describe("Ids of the records to delete."),
    filter: filterSchema("every record that matches it is deleted").optional(),
    deleteAll: z.boolean().optional().describe("true: every record in the namespace."),
  },
  outputSchema: {
    index: z.string().describe("The index deleted from."),
    namespace: z.string().describe('The namespace ("" is the default namespace).'),
    by: z.enum(["ids", "filter", "deleteAll"]).describe("What selected the records."),
    requested: z.number().int().optional().describe("ids: how many ids were given."),
    found: z.number().int().optional().describe("ids: how many of them existed (and were deleted)."),
    missing: z.array(z.string()).optional().describe("ids: the ones that did not exist."),
    before: z.number().int().optional().describe("Records in the namespace before (describe_index_stats)."),
    after: z.number().int().optional().describe("Records in the namespace after."),
    removed: z.number().int().optional().describe("before − after."),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  requiresAllowDestructive: true,
  async run({ index, namespace = "", ids, filter, deleteAll }, ctx) {
    const { service, signal, config } = ctx;
    const given = [ids !== undefined && "ids", filter !== undefined && "filter", deleteAll === true && "deleteAll"].filter(
      (x): x is "ids" | "filter" | "deleteAll" => typeof x === "string",
    );
    if (given.length !== 1) {
      throw new ToolError({
        problem:
          given.length === 0
            ? "Say what to delete: give exactly one of ids (1–1000 record ids), filter (a metadata filter) or deleteAll: true"
            : `Give exactly one of ids, filter or deleteAll; this call gave ${given.join(" and ")}`,
      });
    }
    const by = given[0];
    if (filter !== undefined) {
      const problem = filterProblem(filter);
      if (problem) {
        throw new ToolError(filterRefusal(problem));
      }
      if (Object.keys(filter).length === 0) {
        throw new ToolError({ problem: "The filter is empty, which would match every record. To delete them all, give deleteAll: true instead" });
      }
    }

    const outcome = await onIndexHost(service, index, signal, async (model) => {
      const counts = await namespaceCounts(service, model, signal);
      const before = counts === undefined ? undefined : (counts.get(namespace) ?? 0);
      // An empty namespace: nothing to delete, and the namespaces that hold records are named (a wrong namespace is
      // the likely mistake). Not on the hosted service, where a fresh write may not be counted yet.
      if (before === 0 && !isHostedService(config)) return { before, after: 0, found: ids ? ([] as string[]) : undefined, empty: [...counts!].filter(([, n]) => n > 0) };
      if (!ids) {
        // By filter or all: the person confirms first (when the client can ask), seeing how many records go.
        const matching = filter ? await filterCount(service, model, namespace, filter, signal) : before;
        await confirmDestruction(ctx, {
          action: `Delete ${filter ? "every record matching the filter" : "every record"} in ${namespaceOfIndex(namespace, index)}`,
          loses: `${matching === undefined ? "the matching records" : recordsIn(matching, undefined)} in ${namespaceOfIndex(namespace, index)}`,
          name: index,
        });
      }
      let found: string[] | undefined;
      if (ids) {
        const unique = [...new Set(ids)];
        const fetched = await service.data.fetchMany(model.host, unique, namespace, signal);
        found = unique.filter((id) => Object.hasOwn(fetched, id)); // not `in`: "constructor" is in every object
      }
      await service.data.deleteVectors(
        model.host,
        { namespace, ...(ids ? { ids } : filter ? { filter } : { deleteAll: true }) },
        signal,
      );
      const after = (await namespaceCounts(service, model, signal))?.get(namespace) ?? (counts ? 0 : undefined);
      return { before, after, found, empty: undefined };
    });

    const { before, after, found, empty } = outcome;
    const structured = {
      index,
      namespace,
      by,
      ...(ids && found && { requested: new Set(ids).size, found: found.length, missing: [...new Set(ids)].filter((id) => !found.includes(id)) }),
      ...(before !== undefined && { before }),
      ...(after !== undefined && { after }),
      ...(before !== undefined && after !== undefined && { removed: before - after }),
    };
    const where = `index ${JSON.stringify(index)}, namespace ${nsName(namespace)}`;
    if (empty) {
      const others = empty.length ? `The namespaces that hold records: ${empty.map(([n, c]) => `${nsName(n)} (${c})`).join(", ")}.` : "The index holds no records at all.";
      return {
        structured,
        table: `Namespace ${nsName(namespace)} of index ${JSON.stringify(index)} holds no records: nothing was deleted.`,
        note: `${others}${empty.length ? "\nNext step: call delete_vectors again with the right namespace." : ""}`,
      };
    }
    const what =
      by === "ids"
        ? `${structured.found} of the ${structured.requested} ids given${structured.missing?.length ? ` (${structured.missing.length} did not exist)` : ""}`
        : by === "filter"
          ? "the records matching the filter"
          : "every record";
    const table = markdownTable(
      ["index", "namespace", "by", "records before", "records after", "removed"],
      [[index, namespaceName(namespace), by, before, after, structured.removed]],
    );
    const missing = structured.missing?.length ? `\n\nIds that did not exist: ${structured.missing.join(", ")}` : "";
    return { structured, table: `Deleted ${what} from ${where}.\n\n${table}${missing}`, ...(isHostedService(config) && { note: FRESHNESS_NOTE }) };
  },
});
