// fetch_vectors — records by id, in full; the ids that are not there are named.
import { z } from "zod";
import { metadataSummary, shorten, TABLE_ROWS } from "../../src/tool-kit/format/shorten.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { namespaceOfIndex } from "../../src/tool-kit/results/index-summary.js";
import { indexArg, namespaceArg, recordIdArg, ruleError } from "../../src/tool-kit/args/schema.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";
import { valuesFormatArg } from "../../src/tool-kit/args/compact-values.js";
import { CompactSparseValuesOutput, inValuesFormat, valuesBase64Output } from "../../src/tool-kit/results/values-format.js";

const MAX_IDS = 1000;
const RULES = { after: "Nothing was fetched." };
const rule = (text: string) => ruleError(text, RULES);

const Fetched = z.object({
  id: z.string().describe("Record id."),
  values: z.array(z.number()).optional().describe("Dense values."),
  valuesBase64: valuesBase64Output,
  sparseValues: CompactSparseValuesOutput.optional().describe("Sparse values."),
  metadata: z.record(z.string(), z.unknown()).optional().describe("Metadata, in full."),
});
type Fetched = z.infer<typeof Fetched>;

export default defineTool({
  name: "fetch_vectors",
  title: "Fetch vectors",
  description:
    `Read records by id (1–${MAX_IDS} ids): their values, sparse values and metadata. Use it to look at what was stored, ` +
    "to check that an upsert landed, or to find out which ids exist. Returns a table (id · dimension · sparse non-zeros · " +
    "metadata, shortened; the first 100 records) with the ids not found listed as missing, and the full records as structuredContent.vectors " +
    "(missing ids in structuredContent.missing). list_vector_ids lists the ids there are.",
  inputSchema: {
    index: indexArg("Name of the index (list_indexes shows the names).", RULES),
    namespace: namespaceArg('Namespace to read from, up to 512 characters; omitted means the default namespace "".', RULES),
    ids: z
      .array(recordIdArg(RULES).describe("A record id, 1–512 characters."))
      .min(1, rule(`give 1–${MAX_IDS} ids per call`))
      .max(MAX_IDS, rule(`give 1–${MAX_IDS} ids per call; split a longer list into several calls`))
      .describe(`The ids of the records to read, 1–${MAX_IDS}.`),
    valuesFormat: valuesFormatArg,
  },
  outputSchema: {
    index: z.string().describe("The index read from."),
    namespace: z.string().describe('The namespace read from ("" is the default namespace).'),
    vectors: z.array(Fetched).describe("The records found, in the order their ids were given."),
    missing: z.array(z.string()).describe("The ids given that have no record in the namespace."),
  },
  annotations: READ_ONLY,
  async run({ index, namespace = "", ids, valuesFormat }, { service, signal }) {
    const unique = [...new Set(ids)];
    const found = await onIndexHost(service, index, signal, (model) => service.data.fetchMany(model.host, unique, namespace, signal));
    const vectors: Fetched[] = [];
    const missing: string[] = [];
    for (const id of unique) {
      const r = Object.hasOwn(found, id) ? found[id] : undefined;
      if (!r) {
        missing.push(id);
        continue;
      }
      const record: Fetched = { id };
      if (r.values && r.values.length > 0) record.values = r.values;
      if (r.sparseValues) record.sparseValues = { indices: r.sparseValues.indices, values: r.sparseValues.values };
      if (r.metadata) record.metadata = r.metadata;
      vectors.push(record);
    }
    const structured = { index, namespace, vectors: inValuesFormat(vectors, valuesFormat), missing };
    const where = namespaceOfIndex(namespace, index);
    const missingText = missing.length
      ? `Missing (no record with these ids in ${where}): ${missing.map((id) => JSON.stringify(id)).join(", ")}.`
      : "";
    if (vectors.length === 0) {
      return { structured, table: `None of the ${unique.length} ids has a record in ${where}.\n${missingText}\nlist_vector_ids lists the ids there are.` };
    }
    const table = markdownTable(
      ["id", "dimension", "sparse non-zeros", "metadata"],
      vectors.slice(0, TABLE_ROWS).map((v) => [shorten(v.id), v.values?.length, v.sparseValues?.indices.length, metadataSummary(v.metadata)]),
    );
    const rest = vectors.length > TABLE_ROWS ? `\n\nThe other ${vectors.length - TABLE_ROWS} records found are in structuredContent.vectors.` : "";
    const head = `${vectors.length} of ${unique.length} ${unique.length === 1 ? "record" : "records"} found in ${where}:`;
    return { structured, table: `${head}\n\n${table}${rest}${missingText ? `\n\n${missingText}` : ""}` };
  },
});
