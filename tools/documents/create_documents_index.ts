// create_documents_index — an index of documents searched by their words (full-text fields), and optionally by
// meaning (a vector field the tools fill by embedding the text with a model) or by the caller's own vectors. Sent as
// POST /indexes with deployment + schema under 2026-07; waits until ready. The same call again returns the index.
import { z } from "zod";
import type { CreateDocumentIndexRequest, NewSchemaField } from "../../src/api/documents.js";
import { ServiceError } from "../../src/api/errors.js";
import type { Service } from "../../src/api/service.js";
import { newNameSchema } from "../../src/tool-kit/args/names.js";
import { ruleError, wholeNumberArg } from "../../src/tool-kit/args/schema.js";
import { documentIndex, meaningDescription, speakingDocuments, type DocumentSchemaView } from "../../src/tool-kit/documents/document-index.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { waitUntilReady } from "../../src/tool-kit/index-wait.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { defineTool } from "../../src/tool-kit/tool.js";

const UNTOUCHED = "created";
const rule = (text: string) => ruleError(text, { untouched: UNTOUCHED });
const DEFAULT_WAIT_SECONDS = 45;
const DEFAULT_WAIT_WITH_PROGRESS_SECONDS = 180;
// checked by refine rather than a pattern: the rule is rarely met, and a pattern would be read in every tools/list
const fieldName = z
  .string()
  .min(1)
  .max(64)
  .refine((name) => !/^[_$]/.test(name), rule("field names do not start with _ or $"));
const language = z.string().min(2).max(2);
const gram = (end: string) => wholeNumberArg(1, 10, rule(`ngram.${end} is a whole number from 1 to 10`));
/** A text field's own analysis: what it gives replaces the index-wide setting for it. */
const FieldAnalysis = z.object({
  language: language.optional(),
  stemming: z.boolean().optional(),
  stopWords: z.boolean().optional(),
  ngram: z.object({ min: gram("min"), max: gram("max"), prefixOnly: z.boolean().optional() }).optional(),
});
type TextField = z.output<typeof FieldAnalysis> & { name: string };

const input = {
  name: newNameSchema("Index", "Up to 45 characters."),
  textFields: z.array(fieldName).min(1).max(100).describe("Fields searched by words."),
  fieldAnalysis: z
    .record(z.string(), FieldAnalysis)
    .optional()
    .describe("A text field's own analysis, by name, over the settings below (ngram: parts of words)."),
  language: language.optional().describe('ISO 639-1 code, default "en".'),
  stemming: z.boolean().optional().describe("Match word forms (walk = walked)."),
  stopWords: z.boolean().optional().describe("Ignore words like the/a (implies stemming)."),
  meaning: z
    .object({
      model: z.string().min(1).max(100).describe("Embedding model (list_models)."),
      from: z.array(fieldName).min(1).max(100).optional().describe("Text fields to embed; default all."),
    })
    .optional()
    .describe("Also search by meaning: embed the text with this model."),
  vector: z
    .object({ dimension: wholeNumberArg(1, 20_000, rule("vector.dimension is a whole number from 1 to 20000")), metric: z.enum(["cosine", "euclidean", "dotproduct"]).optional() })
    .optional()
    .describe('Your own dense vectors in a "vector" field.'),
  sparse: z.boolean().optional().describe('Your own sparse vectors in a "sparse" field.'),
  cloud: z.enum(["aws", "gcp", "azure"]).optional().describe("Default aws."),
  region: z.string().min(1).max(64).optional().describe("Default us-east-1."),
  deletionProtection: z.enum(["enabled", "disabled"]).optional(),
  tags: z.record(z.string().min(1).max(80), z.string().max(120)).optional(),
  waitSeconds: z.number().int().min(0).max(600).optional(),
};
type Args = z.output<z.ZodObject<typeof input>>;

const Field = z.object({
  name: z.string(),
  type: z.string().describe("text, meaning, dense_vector or sparse_vector."),
  settings: z.string().describe("Language and analysis, or dimension and metric, or the model."),
});
type Field = z.infer<typeof Field>;

type FullText = Extract<NewSchemaField, { type: "string" }>["full_text_search"];

/**
 * A text field's analysis: its own settings over the index-wide ones. An n-gram field is cut into character n-grams
 * instead of words, so the index-wide stemming and stop words are not for it; asked of it by name, they are refused.
 */
function analysis(field: TextField, args: Args): FullText {
  const at = ` (text field ${JSON.stringify(field.name)})`;
  const lang = field.language ?? args.language ?? "en";
  if (field.ngram) {
    if (field.stemming || field.stopWords) throw new ToolError({ problem: `ngram cannot be combined with stemming or stopWords${at}: n-grams are cut from the characters, not the words`, untouched: UNTOUCHED });
    const { min, max, prefixOnly } = field.ngram;
    if (min > max) throw new ToolError({ problem: `ngram.min (${min}) is more than ngram.max (${max})${at}`, untouched: UNTOUCHED });
    return { language: lang, ngram: { min_gram: min, max_gram: max, ...(prefixOnly !== undefined && { prefix_only: prefixOnly }) } };
  }
  const stemmingAsked = field.stemming ?? args.stemming;
  const stopWords = field.stopWords ?? args.stopWords ?? false;
  if (stopWords && stemmingAsked === false) {
    const own = field.stemming !== undefined || field.stopWords !== undefined;
    throw new ToolError({ problem: `stopWords needs stemming${own ? at : ""}: give stemming true or leave it out`, untouched: UNTOUCHED });
  }
  return { language: lang, stemming: stemmingAsked ?? stopWords, stop_words: stopWords };
}

function textFieldsOf(args: Args): TextField[] {
  const own = args.fieldAnalysis ?? {};
  const stray = Object.keys(own).filter((name) => !args.textFields.includes(name));
  if (stray.length > 0) {
    throw new ToolError({ problem: `fieldAnalysis names ${stray.map((f) => JSON.stringify(f)).join(", ")}, not among textFields`, untouched: UNTOUCHED });
  }
  return [...new Set(args.textFields)].map((name) => ({ ...own[name], name }));
}

async function schemaFields(args: Args, ctx: { service: Service; signal: AbortSignal }): Promise<Record<string, NewSchemaField>> {
  const fields: Record<string, NewSchemaField> = {};
  const textFields = textFieldsOf(args);
  for (const field of textFields) fields[field.name] = { type: "string", full_text_search: analysis(field, args) };
  const names = textFields.map((f) => f.name);
  const taken = (name: string) => {
    if (name in fields) throw new ToolError({ problem: `textFields names ${JSON.stringify(name)}, which is also the ${name} field the tools add: rename that text field`, untouched: UNTOUCHED });
  };
  if (args.meaning) {
    const from = args.meaning.from ?? [...new Set(names)];
    const unknown = from.filter((f) => !names.includes(f));
    if (unknown.length > 0) throw new ToolError({ problem: `meaning.from names ${unknown.map((f) => JSON.stringify(f)).join(", ")}, not among textFields`, untouched: UNTOUCHED });
    if (args.vector) throw new ToolError({ problem: "Give meaning or vector, not both: an index has one dense vector field", untouched: UNTOUCHED });
    const models = await ctx.service.inference.listModels({ type: "embed" }, ctx.signal);
    const model = models.find((m) => m.model === args.meaning!.model);
    if (!model) {
      throw new ToolError({
        problem: `No embedding model ${JSON.stringify(args.meaning.model)}; the service has ${models.map((m) => m.model).join(", ") || "none"}`,
        untouched: UNTOUCHED,
        next: "call again with one of them (list_models describes them).",
      });
    }
    const description = meaningDescription(from, model.model);
    taken("meaning");
    if (model.vector_type === "sparse") {
      if (args.sparse) throw new ToolError({ problem: `Model ${model.model} makes sparse vectors, and sparse asks for a sparse field too: an index has one`, untouched: UNTOUCHED });
      fields.meaning = { type: "sparse_vector", description };
    } else {
      const metric = model.supported_metrics?.[0] ?? "cosine";
      // A model that does not list its dimension (one of an OpenAI-compatible server) shows it by embedding a word.
      const dimension = model.default_dimension ?? (await ctx.service.inference.embed({ model: model.model, inputs: [{ text: "dimension" }] }, ctx.signal)).data[0]?.values?.length;
      if (!dimension) throw new ToolError({ problem: `Model ${model.model} did not say how long its vectors are`, untouched: UNTOUCHED });
      fields.meaning = { type: "dense_vector", dimension, metric, description };
    }
  }
  if (args.vector) {
    taken("vector");
    fields.vector = { type: "dense_vector", dimension: args.vector.dimension, metric: args.vector.metric ?? "cosine" };
  }
  if (args.sparse) {
    taken("sparse");
    fields.sparse = { type: "sparse_vector" };
  }
  return fields;
}

function describeFields(view: DocumentSchemaView, settings: (field: string) => string): Field[] {
  const out: Field[] = view.textFields.map((name) => ({ name, type: "text", settings: settings(name) }));
  if (view.meaning) out.push({ name: view.meaning.field, type: "meaning", settings: `${view.meaning.model} on ${view.meaning.from.join(", ")}` });
  if (view.dense) out.push({ name: view.dense.field, type: "dense_vector", settings: `${view.dense.dimension} dimensions, ${view.dense.metric}` });
  if (view.sparse) out.push({ name: view.sparse.field, type: "sparse_vector", settings: "" });
  return out;
}

export default defineTool({
  name: "create_documents_index",
  title: "Create documents index",
  description:
    "Create a documents index searched by exact words, phrases and query strings (textFields), optionally by meaning " +
    "(meaning.model embeds the text); waits until ready. Other fields are filterable.",
  inputSchema: input,
  outputSchema: {
    index: z.string(),
    host: z.string().optional(),
    fields: z.array(Field).describe("The schema's fields."),
    created: z.boolean().describe("false when the index existed with these fields."),
    ready: z.boolean(),
    waitedSeconds: z.number(),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  indexArguments: ["name"],
  async run(args, ctx) {
    const { service, signal } = ctx;
    const fields = await schemaFields(args, ctx);
    const body: CreateDocumentIndexRequest = {
      name: args.name,
      deployment: { deployment_type: "managed", cloud: args.cloud ?? "aws", region: args.region ?? "us-east-1" },
      schema: { fields },
      ...(args.deletionProtection && { deletion_protection: args.deletionProtection }),
      ...(args.tags && { tags: args.tags }),
    };
    let created = true;
    try {
      await speakingDocuments(UNTOUCHED, () => service.documents.createIndex(body, signal));
    } catch (err) {
      if (!(err instanceof ServiceError && err.status === 409)) throw err;
      created = false;
    }
    const { index, view } = await documentIndex(service, args.name, signal, UNTOUCHED);
    if (!created) {
      const same = Object.keys(index.schema?.fields ?? {}).sort().join() === Object.keys(fields).sort().join();
      const differs = Object.entries(fields).filter(([name, f]) => JSON.stringify(pick(index.schema?.fields[name], f)) !== JSON.stringify(f));
      if (!same || differs.length > 0) {
        throw new ToolError({
          problem: `Index ${JSON.stringify(args.name)} already exists with other fields (${Object.keys(index.schema?.fields ?? {}).join(", ")})`,
          untouched: "changed",
          next: "use the existing index as it is (describe_index shows it), or call create_documents_index with another name.",
        });
      }
    }
    const limitS = args.waitSeconds ?? (ctx.progressRequested ? DEFAULT_WAIT_WITH_PROGRESS_SECONDS : DEFAULT_WAIT_SECONDS);
    const model = await service.control.describeIndex(args.name, signal);
    const waited = limitS > 0 && !model.status.ready ? await waitUntilReady(model, limitS, ctx) : { index: model, seconds: 0 };
    const settings = (name: string) => {
      const f = index.schema?.fields[name]?.full_text_search;
      if (!f) return "";
      const grams = f.ngram ? `, ${f.ngram.min_gram}–${f.ngram.max_gram}-grams${f.ngram.prefix_only ? " (prefix only)" : ""}` : "";
      return `${f.language ?? "en"}${f.stemming ? ", stemming" : ""}${f.stop_words ? ", stop words" : ""}${grams}`;
    };
    const described = describeFields(view, settings);
    const ready = waited.index.status.ready;
    const structured = { index: args.name, ...(waited.index.host && { host: waited.index.host }), fields: described, created, ready, waitedSeconds: waited.seconds };
    const name = JSON.stringify(args.name);
    const head = !created
      ? `Index ${name} already exists with these fields; it is returned as is (nothing was created).`
      : ready
        ? `Documents index ${name} created and ready.`
        : `Documents index ${name} created; it is still ${waited.index.status.state} after ${waited.seconds} s.`;
    const table = markdownTable(["field", "type", "settings"], described.map((f) => [f.name, f.type, f.settings]));
    const by = view.meaning ? ", or by meaning" : "";
    return {
      structured,
      table: `${head}\n\n${table}`,
      note: `Next step: write documents with upsert_documents (each with an id and ${view.textFields.map((f) => JSON.stringify(f)).join(" / ")}); search_documents finds them by words, phrases${by}.`,
    };
  },
});

/** The keys of `asked` in what the index has (the service fills in defaults and nulls the rest). */
function pick(has: Record<string, unknown> | undefined, asked: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(asked)) {
    const h = has?.[key];
    out[key] = value !== null && typeof value === "object" && h !== null && typeof h === "object" ? pick(h as Record<string, unknown>, value) : h;
  }
  return out;
}
