// Which path a person meets first for "find my note": the same 300 notes (test/e2e/text-corpus.ts) written through
// the built server both ways — records with integrated embedding (local-bm25, and a dense model) and a documents
// index (full-text field + a meaning field embedded by the same dense model) — and the same labelled queries asked of
// each through the tools: exact phrases, two words, and a text by meaning (the note's words in another order). For
// each path and kind: how many queries found their notes in the top 10 (recall), and what share of the hits shown
// were right (precision). The dense model is the tests' OpenAI-compatible stand-in (test/helpers/embeddings-server.ts:
// a bag of hashed words), the only one that runs with no account; the meaning rows say how the two paths compare when
// they use the same model, not how good a real model is.
//
//   npm run build && node --import tsx bench/documents-vs-records.ts
import { startServiceProcess } from "../test/helpers/local-service.js";
import { startMcp, type McpSession } from "../test/helpers/mcp-client.js";
import { startEmbeddingsServer, TEST_MODEL } from "../test/helpers/embeddings-server.js";
import { corpus } from "../test/e2e/text-corpus.js";

const TOP_K = 10;
const notes = corpus(30);
const words = (text: string) => text.toLowerCase().split(/\s+/);

interface Query {
  kind: "phrase" | "two words" | "meaning";
  text: string;
  relevant: Set<string>;
}

/** Every note whose words hold `seq` in order, next to each other. */
function holdingPhrase(seq: string[]): Set<string> {
  return new Set(notes.filter((n) => words(n.text).some((_, i, w) => seq.every((s, k) => w[i + k] === s))).map((n) => n._id));
}
const holdingAll = (ws: string[]) => new Set(notes.filter((n) => ws.every((w) => words(n.text).includes(w))).map((n) => n._id));

/** Labelled queries: from every 10th note, a two-word phrase of it, two of its words apart, and its words reordered. */
function queries(): Query[] {
  const out: Query[] = [{ kind: "phrase", text: "midnight lantern", relevant: holdingPhrase(["midnight", "lantern"]) }];
  for (let i = 3; i < notes.length; i += 10) {
    const w = words(notes[i].text);
    out.push({ kind: "phrase", text: `${w[1]} ${w[2]}`, relevant: holdingPhrase([w[1], w[2]]) });
    out.push({ kind: "two words", text: `${w[1]} ${w[4]}`, relevant: holdingAll([w[1], w[4]]) });
    out.push({ kind: "meaning", text: [...w].reverse().join(" "), relevant: new Set([notes[i]._id]) });
  }
  return out;
}

type Search = (q: Query) => Promise<string[]>;

async function ids(mcp: McpSession, tool: string, args: Record<string, unknown>): Promise<string[]> {
  const r = await mcp.call(tool, args);
  if (r.isError) throw new Error(`${tool}: ${r.text}`);
  return ((r.structured as { hits: { id: string }[] }).hits ?? []).map((h) => h.id);
}

async function main(): Promise<void> {
  const embedder = await startEmbeddingsServer();
  const svc = await startServiceProcess({ args: ["--embed-url", embedder.url] });
  const mcp = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl } });
  try {
    const must = async (tool: string, args: Record<string, unknown>) => {
      const r = await mcp.call(tool, args);
      if (r.isError) throw new Error(`${tool}: ${r.text}`);
    };
    for (const [name, model] of [["rec-bm25", "local-bm25"], ["rec-dense", TEST_MODEL]]) {
      await must("create_index_for_model", { name, embed: { model, fieldMap: { text: "text" } } });
      await must("upsert_records", { index: name, records: notes });
    }
    await must("create_documents_index", { name: "docs", textFields: ["text"], meaning: { model: TEST_MODEL } });
    await must("upsert_documents", { index: "docs", documents: notes.map(({ _id, ...rest }) => ({ id: _id, ...rest })) });

    const records = (index: string): Search => (q) => ids(mcp, "search_records", { index, query: { text: q.text, topK: TOP_K }, fields: ["topic"] });
    const documents: Search = (q) =>
      ids(mcp, "search_documents", {
        index: "docs",
        topK: TOP_K,
        fields: ["topic"],
        ...(q.kind === "meaning" ? { meaning: q.text } : { words: q.text, match: q.kind === "phrase" ? "phrase" : "all" }),
      });
    const paths: [string, Search][] = [
      ["records, local-bm25 (search_records)", records("rec-bm25")],
      [`records, ${TEST_MODEL} (search_records)`, records("rec-dense")],
      [`documents, full text + meaning by ${TEST_MODEL} (search_documents)`, documents],
    ];
    const all = queries();
    const lines = ["| path | kind | queries | all their notes in the top 10 | hits shown | right hits shown (precision) | first hit right |", "|---|---|---:|---:|---:|---:|---:|"];
    for (const [label, search] of paths) {
      for (const kind of ["phrase", "two words", "meaning"] as const) {
        const qs = all.filter((q) => q.kind === kind);
        let found = 0;
        let shown = 0;
        let right = 0;
        let first = 0;
        for (const q of qs) {
          const got = await search(q);
          shown += got.length;
          right += got.filter((id) => q.relevant.has(id)).length;
          if (got.length > 0 && q.relevant.has(got[0])) first++;
          const wanted = Math.min(q.relevant.size, TOP_K);
          if (got.filter((id) => q.relevant.has(id)).length === wanted) found++;
        }
        lines.push(`| ${label} | ${kind} | ${qs.length} | ${found} | ${shown} | ${right} (${shown ? ((100 * right) / shown).toFixed(0) : "–"} %) | ${first} |`);
      }
    }
    process.stdout.write(`${lines.join("\n")}\n`);
  } finally {
    await mcp.close();
    await svc.stop();
    await embedder.close();
  }
}

await main();
