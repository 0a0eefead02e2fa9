// evaluate_retrieval — how well an index finds what it should: labelled queries (a text or a vector, each with the
// ids that should come back; inline or from a file under an allowed folder) are run, and recall@k, MRR and nDCG@k
// computed for one search setting, or for two side by side (two indexes, e.g. before and after re-embedding or
// local-bm25 against a dense model; or the same index with two topK or rerank settings).
import { z } from "zod";
import { namespaceName } from "../../src/common/namespace-name.js";
import { indexArg, namespaceArg, numberList, numberListProblem, ruleError, textArg, wholeNumberArg } from "../../src/tool-kit/args/schema.js";
import { meanFigures, queryFigures, type QueryFigures } from "../../src/tool-kit/evaluation/metrics.js";
import { readQueryFile } from "../../src/tool-kit/evaluation/query-file.js";
import { runQueries, type LabelledQuery, type SearchSetting } from "../../src/tool-kit/evaluation/run-queries.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { readyIndex } from "../../src/tool-kit/index-host.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";

const MAX_QUERIES = 1000;
const SHOWN = 20;
const RULES = { untouched: "read" } as const;
const rule = (text: string) => ruleError(text, RULES);

const Query = z.object({
  id: textArg(1, 200, rule("a query's id is 1–200 characters")).optional(),
  text: textArg(1, 10_000, rule("a query's text is 1–10,000 characters")).optional(),
  vector: numberList({ min: 1, max: 20_000, ...ruleError("a query's vector is a list of 1–20,000 numbers", { ...RULES, detail: numberListProblem }) }).optional(),
  relevant: z
    .array(textArg(1, 512, rule("record ids are 1–512 characters")), rule("relevant is a list of record ids"))
    .min(1, rule("give at least one relevant id"))
    .max(1000, rule("at most 1000 relevant ids a query"))
    .describe("Ids it should find."),
});

const topKArg = () => wholeNumberArg(1, 1000, rule("topK is a whole number from 1 to 1000")).optional();
const rerankModel = () => textArg(1, 100, rule("rerank is the name of a reranking model (list_models)")).optional();

const Figures = z.object({
  label: z.string().describe('"A" or "B".'),
  index: z.string().describe("The index searched."),
  namespace: z.string().describe('The namespace searched ("__default__" is the default one).'),
  topK: z.number().int().describe("Results asked for."),
  rerank: z.string().optional().describe("The reranking model, when reranked."),
  recall: z.number().describe("Mean recall@k."),
  mrr: z.number().describe("Mean reciprocal rank of the first relevant result within k."),
  ndcg: z.number().describe("Mean nDCG@k."),
});

const Outcome = {
  k: z.number().int().describe("The cutoff of recall@k and nDCG@k (and of MRR)."),
  queries: z.number().int().describe("Labelled queries run."),
  file: z.string().optional().describe("The file the queries came from."),
  settings: z.array(Figures).describe("One or two settings, A then B."),
  perQuery: z
    .array(
      z.object({
        query: z.string().describe("Its id, else the start of its text, else its position."),
        relevant: z.number().int().describe("Relevant ids it has."),
        found: z.array(z.number().int()).describe("Relevant ids found in the first k, per setting."),
        firstRelevant: z.array(z.number().int()).describe("Rank of the first relevant result, per setting (0: none in the first k)."),
        ndcg: z.array(z.number()).describe("nDCG@k, per setting."),
      }),
    )
    .describe(`The ${SHOWN} queries that did worst (by nDCG, or by how much A and B differ), worst first.`),
};
type Structured = z.output<z.ZodObject<typeof Outcome>>;

const three = (x: number) => x.toFixed(3);
/** A difference as the table shows it: "+0.125", "−0.056", "±0.000" (also for a float's dust around zero). */
const signed = (x: number) => {
  const shown = Math.abs(x).toFixed(3);
  return (shown === "0.000" ? "±" : x > 0 ? "+" : "−") + shown;
};

function describeSetting(s: SearchSetting, label: string): string {
  return `${label}: ${JSON.stringify(s.index)}${s.namespace ? ` ns ${JSON.stringify(s.namespace)}` : ""}, topK ${s.topK}${s.rerank ? `, rerank ${s.rerank}` : ""}`;
}

export default defineTool({
  name: "evaluate_retrieval",
  title: "Evaluate retrieval",
  description:
    "Measure search quality: recall@k, MRR and nDCG@k of labelled queries (text or vector, each with the ids it " +
    "should find), for one setting or two side by side.",
  inputSchema: {
    index: indexArg(undefined, RULES),
    namespace: namespaceArg(undefined, RULES),
    topK: topKArg().describe("Default k."),
    rerank: rerankModel().describe("Reranking model (text queries)."),
    compare: z
      .object({ index: indexArg(undefined, RULES).optional(), topK: topKArg(), rerank: rerankModel() })
      .optional()
      .describe("Setting B, side by side; index and topK default to A's."),
    k: wholeNumberArg(1, 100, rule("k is a whole number from 1 to 100")).optional().describe("Default 10."),
    queries: z.array(Query).min(1, rule("give at least one query")).max(MAX_QUERIES, rule(`at most ${MAX_QUERIES} queries a call`)).optional().describe("Or path."),
    path: textArg(1, 4096, rule("give the path of a .json or .jsonl file of queries")).optional().describe("JSON or JSONL file of queries, in an allowed folder."),
  },
  outputSchema: Outcome,
  annotations: READ_ONLY,
  async run({ index, namespace = "", topK, rerank, compare, k = 10, queries: inline, path }, ctx) {
    const { service, signal } = ctx;
    if ((inline === undefined) === (path === undefined)) {
      throw new ToolError({ problem: `Give the labelled queries either inline (queries) or in a file (path)${inline && path ? ", not both" : ""}`, untouched: "read" });
    }
    const fromFile = path === undefined ? undefined : await readQueryFile(path, await ctx.allowedRoots(), Query, MAX_QUERIES);
    const queries: LabelledQuery[] = inline ?? fromFile!.queries;
    const name = (i: number) => {
      const q = queries[i];
      return q.id !== undefined ? `query ${JSON.stringify(q.id)}` : `query ${i + 1}`;
    };
    for (let i = 0; i < queries.length; i++) {
      const q = queries[i];
      const kinds = [q.text !== undefined && "text", q.vector !== undefined && "vector"].filter(Boolean);
      if (kinds.length !== 1) throw new ToolError({ problem: `${name(i)} has ${kinds.length === 0 ? "neither text nor a vector" : "both text and a vector"}: give one`, untouched: "read" });
    }
    const a: SearchSetting = { index, namespace, topK: topK ?? k, ...(rerank && { rerank }) };
    const settings = [a];
    if (compare !== undefined) {
      const b: SearchSetting = { index: compare.index ?? a.index, namespace: a.namespace, topK: compare.topK ?? a.topK, ...(compare.rerank && { rerank: compare.rerank }) };
      if (JSON.stringify(b) === JSON.stringify(a)) throw new ToolError({ problem: "compare names the same setting as the first (index, topK and rerank all equal)", untouched: "read", next: "change at least one of them in compare, or leave compare out." });
      settings.push(b);
    }
    const texts = queries.filter((q) => q.text !== undefined).length;
    for (const [n, s] of settings.entries()) {
      const model = await readyIndex(service, s.index, signal, "read");
      if (texts > 0 && !model.embed) {
        const first = queries.findIndex((q) => q.text !== undefined);
        throw new ToolError({
          problem: `${texts} of the queries are text (the first: ${name(first)}), and index ${JSON.stringify(s.index)} (setting ${"AB"[n]}) does not embed text`,
          untouched: "read",
          next: "give those queries as vectors made by the model that made the index's vectors (embed_texts), or evaluate an index made by create_index_for_model.",
        });
      }
      if (s.rerank && texts < queries.length) {
        throw new ToolError({ problem: `setting ${"AB"[n]} reranks, and a reranker scores results against a query's text: ${queries.length - texts} of the queries are vectors`, untouched: "read", next: "give text queries only, or leave out rerank." });
      }
    }

    let done = 0;
    const total = queries.length * settings.length;
    const figures: QueryFigures[][] = [];
    for (const s of settings) {
      const results = await runQueries(service, s, queries, {
        signal, inFlight: ctx.config.concurrency, name,
        onDone: () => ctx.progress(++done, total, `${done} of ${total} searches run`),
      });
      figures.push(results.map((ids, i) => queryFigures(ids, new Set(queries[i].relevant), k)));
    }

    const means = figures.map(meanFigures);
    const labels = settings.map((s, n) => describeSetting(s, "AB"[n]));
    const s: Structured = {
      k, queries: queries.length, ...(fromFile && { file: fromFile.file }),
      settings: settings.map((set, n) => ({
        label: "AB"[n], index: set.index, namespace: namespaceName(set.namespace), topK: set.topK, ...(set.rerank && { rerank: set.rerank }),
        recall: means[n].recall, mrr: means[n].mrr, ndcg: means[n].ndcg,
      })),
      perQuery: [],
    };
    const start = (text: string) => ([...text].length > 60 ? `${[...text].slice(0, 60).join("")}…` : text);
    const label = (i: number) => queries[i].id ?? (queries[i].text !== undefined ? start(queries[i].text!) : `query ${i + 1}`);
    // Worst first: with one setting the lowest nDCG; with two the largest difference, then the lowest nDCG.
    const order = queries.map((_, i) => i).sort((x, y) => {
      // (rounded: two differences equal by hand must not be told apart by the last bit of a float)
      const key = (i: number) => (figures.length === 2 ? -Math.round(Math.abs(figures[1][i].ndcg - figures[0][i].ndcg) * 1e9) : 0);
      return key(x) - key(y) || Math.round((figures[0][x].ndcg - figures[0][y].ndcg) * 1e9) || x - y;
    });
    const shown = order.filter((i) => figures.some((f) => f[i].ndcg < 1) || (figures.length === 2 && figures[0][i].ndcg !== figures[1][i].ndcg)).slice(0, SHOWN);
    s.perQuery = shown.map((i) => ({
      query: label(i),
      relevant: new Set(queries[i].relevant).size,
      found: figures.map((f) => f[i].found),
      firstRelevant: figures.map((f) => f[i].firstRelevant ?? 0),
      ndcg: figures.map((f) => f[i].ndcg),
    }));

    const two = settings.length === 2;
    const summary = markdownTable(
      ["metric", ...labels, ...(two ? ["B − A"] : [])],
      [
        [`recall@${k}`, ...means.map((m) => three(m.recall)), ...(two ? [signed(means[1].recall - means[0].recall)] : [])],
        ["MRR", ...means.map((m) => three(m.mrr)), ...(two ? [signed(means[1].mrr - means[0].mrr)] : [])],
        [`nDCG@${k}`, ...means.map((m) => three(m.ndcg)), ...(two ? [signed(means[1].ndcg - means[0].ndcg)] : [])],
      ],
    );
    const perQuery =
      s.perQuery.length === 0
        ? `Every query found all its relevant ids in the best order${two ? " in both settings" : ""}.`
        : `${two ? "The queries where A and B differ most" : "The queries that did worst"} (found = relevant ids in the first ${k}; first = rank of the first one):\n\n` +
          markdownTable(
            ["query", "relevant", ...settings.flatMap((_, n) => [`${"AB"[n]} found`, `${"AB"[n]} first`, `${"AB"[n]} nDCG`])],
            s.perQuery.map((q) => [q.query, q.relevant, ...q.found.flatMap((f, n) => [f, q.firstRelevant[n] || "—", three(q.ndcg[n])])]),
          );
    const source = fromFile ? ` from ${fromFile.file}` : "";
    return {
      structured: s,
      table: `Retrieval over ${queries.length} labelled quer${queries.length === 1 ? "y" : "ies"}${source}, cutoff k = ${k} (1.000 is perfect):\n\n${summary}\n\n${perQuery}`,
      ...(order.length > shown.length && s.perQuery.length === SHOWN && { note: `Only the ${SHOWN} worst queries are listed; the figures above count all ${queries.length}.` }),
    };
  },
});
