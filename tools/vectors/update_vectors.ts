// update_vectors — changes one record by id (values, sparse values, metadata), or sets metadata on every record
// matching a filter (dryRun counts them first). The upsert checks apply to the new values and metadata. An update
// by filter that would touch more than one record asks the person to confirm when the client supports it.
import { z } from "zod";
import { checkRecords } from "../../src/ingest/check.js";
import { filterProblem, filterRefusal, filterSchema } from "../../src/tool-kit/args/filter.js";
import { indexArg, namespaceArg, numberList, recordIdArg, ruleError, sparseVectorArg } from "../../src/tool-kit/args/schema.js";
import { confirmDestruction } from "../../src/tool-kit/confirm.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { namespaceOfIndex } from "../../src/tool-kit/results/index-summary.js";
import { ServiceError } from "../../src/api/errors.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { textField, textRecordLine } from "../../src/ingest/text-records.js";
import { defineTool } from "../../src/tool-kit/tool.js";
import { namespaceName } from "../../src/common/namespace-name.js";

const UNTOUCHED = "changed";
const RULES = { untouched: UNTOUCHED } as const;
const rule = (text: string) => ruleError(text, RULES);

export default defineTool({
  name: "update_vectors",
  title: "Update vectors",
  description:
    "Change records in place. By id: values, sparseValues and/or setMetadata. By filter: setMetadata on every match " +
    "(dryRun counts them). On an index that embeds text, setting its text field re-embeds the record (by id only).",
  inputSchema: {
    index: indexArg(undefined, RULES),
    namespace: namespaceArg(undefined, RULES),
    id: recordIdArg(RULES).optional().describe("Or filter."),
    values: numberList({ min: 1, max: 20_000, ...rule("values are 1–20000 numbers") }).optional().describe("By id only."),
    sparseValues: sparseVectorArg(RULES, { nonEmpty: true }).optional().describe("By id only."),
    setMetadata: z.record(z.string(), z.unknown()).optional().describe("Fields to set (merged)."),
    filter: filterSchema("every match gets setMetadata").optional(),
    dryRun: z.boolean().optional().describe("With filter: only count."),
  },
  outputSchema: {
    index: z.string().describe("The index."),
    namespace: z.string().describe('The namespace ("" is the default namespace).'),
    by: z.enum(["id", "filter"]).describe("What selected the records."),
    id: z.string().optional().describe("By id: the record updated."),
    matchedRecords: z.number().int().optional().describe("By filter: records matching the filter."),
    updated: z.boolean().describe("Whether anything was changed (false for a dry run)."),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run({ index, namespace = "", id, values, sparseValues, setMetadata, filter, dryRun }, ctx) {
    const { service, signal } = ctx;
    if ((id === undefined) === (filter === undefined)) {
      throw new ToolError({ problem: "Give exactly one of id (one record) or filter (every matching record)", untouched: UNTOUCHED });
    }
    const where = namespaceOfIndex(namespace, index);
    if (filter !== undefined) {
      if (values || sparseValues) throw new ToolError({ problem: "An update by filter can only set metadata; values and sparseValues need an id", untouched: UNTOUCHED });
      if (!setMetadata && !dryRun) throw new ToolError({ problem: "An update by filter needs setMetadata (the fields to set)", untouched: UNTOUCHED });
      const problem = filterProblem(filter) ?? (Object.keys(filter).length === 0 ? "the filter is empty, which would match every record" : undefined);
      if (problem) {
        throw new ToolError(filterRefusal(problem, UNTOUCHED));
      }
    } else if (!values && !sparseValues && !setMetadata) {
      throw new ToolError({ problem: `Nothing to change: give values, sparseValues or setMetadata for record ${JSON.stringify(id)}`, untouched: UNTOUCHED });
    }
    return onIndexHost(service, index, signal, async (model) => {
      const probe = { id: id ?? "filter", ...(values && { values }), ...(sparseValues && { sparseValues }), ...(setMetadata && { metadata: setMetadata }) };
      const problems = checkRecords([probe], model).filter((p) => !/^is missing/.test(p.rule));
      if (problems.length > 0) {
        throw new ToolError({ problem: problems.map((p) => `${p.field} ${p.rule}`).join("; "), untouched: UNTOUCHED, next: "fix it and call again." });
      }
      const field = textField(model);
      const newText = field !== undefined && setMetadata !== undefined && field in setMetadata;
      if (newText && id === undefined) {
        throw new ToolError({
          problem: `Index ${JSON.stringify(index)} embeds its field "${field}": setting it by filter would leave each record's vector for its old text`,
          untouched: UNTOUCHED,
          next: `call upsert_records with the changed records whole (_id, "${field}" and the other fields), so each is embedded again; or call update_vectors with one id at a time.`,
        });
      }
      if (newText && id !== undefined) {
        if (values || sparseValues) throw new ToolError({ problem: `Index ${JSON.stringify(index)} makes a record's values from its field "${field}": give the new text or new values, not both`, untouched: UNTOUCHED });
        const text = setMetadata[field];
        if (typeof text !== "string" || text.trim() === "") throw new ToolError({ problem: `setMetadata.${field} is the text index ${JSON.stringify(index)} embeds: a string that is not empty`, untouched: UNTOUCHED });
        const current = (await service.data.fetchMetadata(model.host, [id], namespace, signal)).get(id);
        if (current === undefined) {
          throw new ToolError({ problem: `Record ${JSON.stringify(id)} not found in ${where}`, untouched: UNTOUCHED, next: "upsert_records writes a new text record; fetch_vectors or list_vector_ids shows which ids exist." });
        }
        const merged = { ...current, ...setMetadata };
        await service.data.upsertRecords(model.host, namespaceName(namespace), Buffer.from(`${textRecordLine({ _id: id, ...merged })}\n`), signal);
        const table = markdownTable(["id", "changed"], [[id, `metadata (${Object.keys(setMetadata).join(", ")}); values embedded again from "${field}"`]]);
        return { structured: { index, namespace, by: "id" as const, id, updated: true }, table: `Record updated in ${where}, its text embedded again:\n\n${table}` };
      }
      if (id !== undefined) {
        try {
          await service.data.update(model.host, { namespace, id, ...(values && { values }), ...(sparseValues && { sparseValues }), ...(setMetadata && { setMetadata }) }, signal);
        } catch (e) {
          if (e instanceof ServiceError && e.status === 404) {
            throw new ToolError({ problem: `Record ${JSON.stringify(id)} not found in ${where}`, untouched: UNTOUCHED, next: "fetch_vectors or list_vector_ids shows which ids exist." });
          }
          throw e;
        }
        const changed = [values && "values", sparseValues && "sparseValues", setMetadata && `metadata (${Object.keys(setMetadata).join(", ")})`].filter(Boolean);
        const table = markdownTable(["id", "changed"], [[id, changed.join(", ")]]);
        return { structured: { index, namespace, by: "id" as const, id, updated: true }, table: `Record updated in ${where}:\n\n${table}` };
      }
      const counted = await service.data.update(model.host, { namespace, filter, setMetadata: setMetadata ?? {}, dryRun: true }, signal);
      const matched = counted.matchedRecords ?? 0;
      if (dryRun || matched === 0) {
        const text = dryRun ? `Dry run: ${matched} records in ${where} match the filter; nothing was changed.` : `No record in ${where} matches the filter; nothing was changed.`;
        return { structured: { index, namespace, by: "filter" as const, matchedRecords: matched, updated: false }, table: text };
      }
      if (matched > 1) {
        await confirmDestruction(ctx, {
          action: `Overwrite the metadata fields ${Object.keys(setMetadata!).join(", ")} on every record matching the filter in ${where}`,
          loses: `the current values of those fields on ${matched.toLocaleString("en-US")} records`,
          name: index,
          untouched: UNTOUCHED,
        });
      }
      const done = await service.data.update(model.host, { namespace, filter, setMetadata }, signal);
      const n = done.matchedRecords ?? matched;
      const table = markdownTable(["index", "namespace", "matched records", "fields set"], [[index, namespaceName(namespace), n, Object.keys(setMetadata!).join(", ")]]);
      return { structured: { index, namespace, by: "filter" as const, matchedRecords: n, updated: true }, table: `Metadata set on ${n} records in ${where}:\n\n${table}` };
    });
  },
});
