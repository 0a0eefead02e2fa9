// evaluate_retrieval end to end: the built server over stdio against the local service. Records placed so that every
// ranking is known, and the figures written here by hand:
//   vector queries on two dense indexes side by side ("before" and "after" one record moved), from a JSONL file;
//   text queries (records search, local-bm25) with two topK settings side by side, inline;
// and the refusals: a text query for an index that does not embed text, a bad line in a file, neither or both sources.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nothingWas } from "../../../src/tool-kit/refusal.js";
import { startServiceProcess, type RunningService } from "../../helpers/local-service.js";
import { startMcp, type McpSession } from "../../helpers/mcp-client.js";
import { api, createIndex, dataUrl, serverless } from "../../e2e/support.js";

let svc: RunningService;
let mcp: McpSession;
let base: string;

const at = (degrees: number) => [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180)];

// "vec": r0…r5 at 0°, 10°, 20°, 30°, 40°, 50°. "vec2": the same, but r2 moved to 45° (a re-embedding that hurt).
const angles = { vec: [0, 10, 20, 30, 40, 50], vec2: [0, 10, 45, 30, 40, 50] };

// k = 3. By cosine, nearest first:
//   q1 at 0°   vec: r0 r1 r2   vec2: r0 r1 r3     relevant r0, r2
//   q2 at 50°  vec: r5 r4 r3   vec2: r5 r2 r4     relevant r3, r9 (no such record: it can never be found)
//   q3 at 22°  vec: r2 r3 r1   vec2: r3 r1 r4     relevant r0, r1
const vectorQueries = [
  { id: "q1", vector: at(0), relevant: ["r0", "r2"] },
  { id: "q2", vector: at(50), relevant: ["r3", "r9"] },
  { id: "q3", vector: at(22), relevant: ["r0", "r1"] },
];

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), "vecdb-evaluate-"));
  mkdirSync(join(base, "allowed"));
  svc = await startServiceProcess();
  for (const [name, list] of Object.entries(angles)) {
    const { host } = await createIndex(svc, { name, dimension: 2, metric: "cosine", spec: serverless });
    const res = await api(svc, "POST", `${dataUrl(host)}/vectors/upsert`, { vectors: list.map((deg, i) => ({ id: `r${i}`, values: at(deg) })) });
    expect(res.status).toBe(200);
  }
  mcp = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl }, args: ["--allow-dir", join(base, "allowed")] });
});

afterAll(async () => {
  await mcp?.close();
  await svc?.stop();
  if (base) rmSync(base, { recursive: true, force: true });
});

describe("evaluate_retrieval: figures equal a hand computation", () => {
  it("vector queries from a JSONL file, two indexes side by side (before and after)", async () => {
    writeFileSync(join(base, "allowed", "labelled.jsonl"), vectorQueries.map((q) => JSON.stringify(q)).join("\n") + "\n");
    const r = await mcp.call("evaluate_retrieval", { index: "vec", compare: { index: "vec2" }, k: 3, path: "labelled.jsonl" });
    expect(r.isError, r.text).toBe(false);
    // By hand, with I = 1 + 1/log2(3) = 1.6309298 (the ideal DCG of two relevant ids):
    //   vec   q1 ranks 1, 3: recall 1,   RR 1,   nDCG (1 + 1/2) / I = 0.919721
    //         q2 rank 3:     recall 1/2, RR 1/3, nDCG (1/2) / I     = 0.306574
    //         q3 rank 3:     recall 1/2, RR 1/3, nDCG 0.306574
    //         means: recall 2/3 = 0.667, MRR 5/9 = 0.556, nDCG 1.532869 / 3 = 0.511
    //   vec2  q1 rank 1:     recall 1/2, RR 1,   nDCG 1 / I                 = 0.613147
    //         q2 none:       0, 0, 0
    //         q3 rank 2:     recall 1/2, RR 1/2, nDCG (1/log2(3)) / I      = 0.386853
    //         means: recall 1/3 = 0.333, MRR 1/2 = 0.500, nDCG 1/3 = 0.333
    const settings = r.structured?.settings as { recall: number; mrr: number; ndcg: number }[];
    expect(settings.map((s) => [s.recall, s.mrr, s.ndcg].map((x) => Number(x.toFixed(6))))).toEqual([
      [0.666667, 0.555556, 0.510956],
      [0.333333, 0.5, 0.333333],
    ]);
    expect(r.structured).toMatchObject({
      k: 3, queries: 3, file: join(base, "allowed", "labelled.jsonl"),
      settings: [{ label: "A", index: "vec", namespace: "__default__", topK: 3 }, { label: "B", index: "vec2", namespace: "__default__", topK: 3 }],
    });
    // Worst first: q1 and q2 differ the most (0.306574 each; q2, the lower in A, first), then q3.
    expect(r.text).toBe(
      `Retrieval over 3 labelled queries from ${join(base, "allowed", "labelled.jsonl")}, cutoff k = 3 (1.000 is perfect):\n\n` +
        '| metric | A: "vec", topK 3 | B: "vec2", topK 3 | B − A |\n| --- | --- | --- | --- |\n' +
        "| recall@3 | 0.667 | 0.333 | −0.333 |\n| MRR | 0.556 | 0.500 | −0.056 |\n| nDCG@3 | 0.511 | 0.333 | −0.178 |\n\n" +
        "The queries where A and B differ most (found = relevant ids in the first 3; first = rank of the first one):\n\n" +
        "| query | relevant | A found | A first | A nDCG | B found | B first | B nDCG |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n" +
        "| q2 | 2 | 1 | 3 | 0.307 | 0 | — | 0.000 |\n" +
        "| q1 | 2 | 2 | 1 | 0.920 | 1 | 1 | 0.613 |\n" +
        "| q3 | 2 | 1 | 3 | 0.307 | 1 | 2 | 0.387 |",
    );
  });

  it("text queries (records search, local-bm25), inline, topK 3 against topK 1 on the same index", async () => {
    const create = await mcp.call("create_index_for_model", { name: "kb", cloud: "aws", region: "us-east-1", embed: { model: "local-bm25", fieldMap: { text: "text" } } });
    expect(create.isError, create.text).toBe(false);
    const records = [
      { _id: "t1", text: "kiwi smoothie" },
      { _id: "t2", text: "kiwi orchard" },
      { _id: "t3", text: "mango" },
      { _id: "t4", text: "mango lassi drink with ice and fresh mint leaves" },
      { _id: "t5", text: "papaya" },
    ];
    expect((await mcp.call("upsert_records", { index: "kb", records })).isError).toBe(false);
    // BM25 finds only the records holding a query's word, the shorter first when the word appears once in each:
    //   "kiwi"   t1, t2 (either order)   relevant t1, t2   A: ranks 1, 2: 1, 1, 1           B (topK 1): one of 2 at rank 1: 1/2, 1, 1/I = 0.613147
    //   "mango"  t3, t4                  relevant t4       A: rank 2: 1, 1/2, 1/log2(3) = 0.630930   B: none: 0, 0, 0
    //   "papaya" t5                      relevant t3       A: none: 0, 0, 0                           B: none
    //   A means: recall 2/3, MRR 1/2, nDCG 1.630930 / 3 = 0.543643;  B: recall 1/6, MRR 1/3, nDCG 0.613147 / 3 = 0.204382
    const r = await mcp.call("evaluate_retrieval", {
      index: "kb", k: 3, compare: { topK: 1 },
      queries: [
        { text: "kiwi", relevant: ["t1", "t2"] },
        { text: "mango", relevant: ["t4"] },
        { text: "papaya", relevant: ["t3"] },
      ],
    });
    expect(r.isError, r.text).toBe(false);
    const settings = r.structured?.settings as { recall: number; mrr: number; ndcg: number; topK: number }[];
    expect(settings.map((s) => [s.topK, ...[s.recall, s.mrr, s.ndcg].map((x) => Number(x.toFixed(6)))])).toEqual([
      [3, 0.666667, 0.5, 0.543643],
      [1, 0.166667, 0.333333, 0.204382],
    ]);
    expect(r.text).toContain('| metric | A: "kb", topK 3 | B: "kb", topK 1 | B − A |\n| --- | --- | --- | --- |\n| recall@3 | 0.667 | 0.167 | −0.500 |\n| MRR | 0.500 | 0.333 | −0.167 |\n| nDCG@3 | 0.544 | 0.204 | −0.339 |');

    // Reranked by local-bm25-rerank (BM25 over the results given, on the index's text field): the same order here, so
    // the same figures; the reranker is named in B's column.
    const reranked = await mcp.call("evaluate_retrieval", { index: "kb", k: 3, compare: { rerank: "local-bm25-rerank" }, queries: [{ text: "mango", relevant: ["t4"] }] });
    expect(reranked.isError, reranked.text).toBe(false);
    expect(reranked.text).toContain('| metric | A: "kb", topK 3 | B: "kb", topK 3, rerank local-bm25-rerank | B − A |\n| --- | --- | --- | --- |\n| recall@3 | 1.000 | 1.000 | ±0.000 |\n| MRR | 0.500 | 0.500 | ±0.000 |\n| nDCG@3 | 0.631 | 0.631 | ±0.000 |');
  });

  it("one setting alone: the figures and the worst queries", async () => {
    const r = await mcp.call("evaluate_retrieval", { index: "vec", k: 3, queries: vectorQueries });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toBe(
      "Retrieval over 3 labelled queries, cutoff k = 3 (1.000 is perfect):\n\n" +
        '| metric | A: "vec", topK 3 |\n| --- | --- |\n| recall@3 | 0.667 |\n| MRR | 0.556 |\n| nDCG@3 | 0.511 |\n\n' +
        "The queries that did worst (found = relevant ids in the first 3; first = rank of the first one):\n\n" +
        "| query | relevant | A found | A first | A nDCG |\n| --- | --- | --- | --- | --- |\n" +
        "| q2 | 2 | 1 | 3 | 0.307 |\n| q3 | 2 | 1 | 3 | 0.307 |\n| q1 | 2 | 2 | 1 | 0.920 |",
    );
  });
});

describe("evaluate_retrieval refuses, reading nothing", () => {
  it("text queries for an index that does not embed text", async () => {
    const r = await mcp.call("evaluate_retrieval", { index: "vec", queries: [{ id: "t", text: "kiwi", relevant: ["r1"] }] });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      `1 of the queries are text (the first: query "t"), and index "vec" (setting A) does not embed text. ${nothingWas("read")}\n` +
        "Next step: give those queries as vectors made by the model that made the index's vectors (embed_texts), or evaluate an index made by create_index_for_model.",
    );
  });

  it("a bad line in the file, named by its line", async () => {
    writeFileSync(join(base, "allowed", "bad.jsonl"), `${JSON.stringify(vectorQueries[0])}\n\n{"vector": [1, 0], "relevant": []}\n`);
    const r = await mcp.call("evaluate_retrieval", { index: "vec", path: "bad.jsonl" });
    expect(r.text).toBe(`${join(base, "allowed", "bad.jsonl")}, line 3: relevant: give at least one relevant id. ${nothingWas("read")}\nNext step: fix the file and call again.`);
  });

  it("neither queries nor path, a query with both text and a vector, and a compare that changes nothing", async () => {
    expect((await mcp.call("evaluate_retrieval", { index: "vec" })).text).toBe(`Give the labelled queries either inline (queries) or in a file (path). ${nothingWas("read")}`);
    const both = await mcp.call("evaluate_retrieval", { index: "vec", queries: [{ text: "x", vector: [1, 0], relevant: ["r0"] }] });
    expect(both.text).toBe(`query 1 has both text and a vector: give one. ${nothingWas("read")}`);
    const same = await mcp.call("evaluate_retrieval", { index: "vec", compare: { index: "vec" }, queries: vectorQueries });
    expect(same.text).toBe(`compare names the same setting as the first (index, topK and rerank all equal). ${nothingWas("read")}\nNext step: change at least one of them in compare, or leave compare out.`);
  });
});
