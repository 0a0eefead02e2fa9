// Results within the client's budget, measured with the real tokenizer (o200k): the three calls that used to take
// tens of thousands of tokens (query_vectors with 1536-d values, search_records over long document chunks,
// fetch_vectors of 1,000 ids) stay within --max-result-tokens in each channel, with whole rows only and a note whose
// call gets the rest; search tables put the text first and leave index_documents' bookkeeping to structuredContent.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { startMcp, type McpSession, type ToolCall } from "../helpers/mcp-client.js";
import { escapeCell } from "../../src/tool-kit/format/table.js";
import { api, createIndex, dataUrl, f32, randomVector, serverless } from "./support.js";

const BUDGET = 10_000;
const DIM = 1536;

let svc: RunningService;
let mcp: McpSession;
let base: string;

/** o200k tokens of each channel as the client receives it. */
function measured(r: ToolCall): { text: number; structured: number } {
  return { text: countTokens(r.text), structured: countTokens(JSON.stringify(r.structured)) };
}

function expectWithin(r: ToolCall, budget = BUDGET): void {
  expect(r.isError).toBe(false);
  const used = measured(r);
  expect(used.text).toBeLessThanOrEqual(budget);
  expect(used.structured).toBeLessThanOrEqual(budget);
}

async function upsert(host: string, vectors: unknown[], namespace = ""): Promise<void> {
  for (let i = 0; i < vectors.length; i += 100) {
    const res = await api(svc, "POST", `${dataUrl(host)}/vectors/upsert`, { vectors: vectors.slice(i, i + 100), namespace });
    if (res.status !== 200) throw new Error(`upsert: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

/** A call's arguments as the note spells them: `tool {…json…}`. */
function callIn(note: string, tool: string): Record<string, unknown> {
  const at = note.indexOf(`${tool} {`);
  expect(at, note).toBeGreaterThanOrEqual(0);
  const from = at + tool.length + 1;
  for (let end = note.indexOf("}", from); end >= 0; end = note.indexOf("}", end + 1)) {
    try {
      return JSON.parse(note.slice(from, end + 1)) as Record<string, unknown>;
    } catch {
      // not the closing brace yet
    }
  }
  throw new Error(`no ${tool} call in: ${note}`);
}

const stored = (i: number) => randomVector(DIM, i + 1).map(f32);
const WORDS = ["harbor", "lantern", "tide", "anchor", "signal", "keel", "rope", "gull", "pier", "mast", "fog", "chart"];
/** A paragraph of about `n` words, every one about the harbor. */
function paragraph(seed: number, n: number): string {
  const words = Array.from({ length: n }, (_, i) => WORDS[(seed * 7 + i * 5 + (i * i) % 11) % WORDS.length]);
  return `The harbor ${words.join(" ")}.`;
}

beforeAll(async () => {
  svc = await startServiceProcess();
  const dense = await createIndex(svc, { name: "dense", dimension: DIM, spec: serverless });
  await upsert(dense.host, Array.from({ length: 20 }, (_, i) => ({ id: `d${i}`, values: stored(i), metadata: { title: `record ${i}` } })));
  const small = await createIndex(svc, { name: "small", dimension: 4, spec: serverless });
  await upsert(
    small.host,
    Array.from({ length: 1000 }, (_, i) => ({ id: `r${String(i).padStart(4, "0")}`, values: [1, i, 0, 0], metadata: { title: `record ${i}`, summary: paragraph(i, 20) } })),
  );
  const created = await api(svc, "POST", "/indexes/create-for-model", { name: "docs", cloud: "aws", region: "us-east-1", embed: { model: "local-bm25", field_map: { text: "body" } } });
  if (created.status !== 201) throw new Error(`create-for-model: ${created.status}`);
  for (let i = 0; i < 200 && !(await api(svc, "GET", "/indexes/docs")).body?.status?.ready; i++) await new Promise((r) => setTimeout(r, 50));

  base = mkdtempSync(join(tmpdir(), "vecdb-budget-"));
  const folder = join(base, "guides");
  mkdirSync(folder);
  for (let f = 0; f < 12; f++) {
    const sections = Array.from({ length: 10 }, (_, s) => `## Part ${s + 1}\n\n${paragraph(f * 10 + s, 280)}`);
    writeFileSync(join(folder, `guide-${f}.md`), `# Guide ${f}\n\n${sections.join("\n\n")}\n`);
  }
  mcp = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl }, args: ["--allow-dir", base] });
  const indexed = await mcp.call("index_documents", { index: "docs", paths: ["guides"], chunkSize: 2000, chunkOverlap: 0 });
  expect(indexed.isError, indexed.text).toBe(false);
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  await svc?.stop();
  if (base) rmSync(base, { recursive: true, force: true });
});

describe("query_vectors topK 10 with values on 1536-d records", () => {
  const args = { index: "dense", vector: stored(0), topK: 10, includeValues: true };

  test("when not one match fits with its values: all 10 come without them, and the note's call reads the values", async () => {
    const r = await mcp.call("query_vectors", args);
    expectWithin(r);
    const s = r.structured as { matches: { id: string; score: number; values?: number[]; metadata?: unknown }[]; note: string };
    expect(s.matches).toHaveLength(10);
    expect(s.matches[0].id).toBe("d0");
    expect(s.matches.every((m) => m.values === undefined && m.metadata !== undefined)).toBe(true);
    expect(s.note).toContain(
      "Values were left out of every match: one match's values alone pass this result's budget of 10,000 tokens (--max-result-tokens).",
    );
    expect(r.text.split("\n")[0]).toBe('10 matches in namespace "__default__" of index "dense", best first:');
    expect(r.text.split("\n")[2]).toBe("| rank | id | score | metadata |");
    expect(r.text.endsWith(`\n\n${s.note}`)).toBe(true);

    const call = callIn(s.note, "fetch_vectors");
    expect(call).toEqual({ index: "dense", namespace: "", ids: ["d0"], includeValues: true, valuesFormat: "base64" });
    const f = await mcp.call("fetch_vectors", call);
    expectWithin(f);
    const [v] = (f.structured as { vectors: { id: string; valuesBase64: string }[] }).vectors;
    expect([...new Float32Array(Buffer.from(v.valuesBase64, "base64").buffer.slice(0))]).toEqual(stored(0));
  });

  test("when some matches fit with their values: those, whole, and a note with the calls that get the rest", async () => {
    const wide = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl }, args: ["--max-result-tokens", "40000"] });
    try {
      const r = await wide.call("query_vectors", args);
      expectWithin(r, 40_000);
      const s = r.structured as { matches: { id: string; values: number[] }[]; note: string };
      const shown = s.matches.length;
      expect(shown).toBeGreaterThan(0);
      expect(shown).toBeLessThan(10);
      expect(s.note).toContain(`Matches ${shown + 1}–10 were left out: with their values they would pass this result's budget of 40,000 tokens (--max-result-tokens).`);
      expect(s.note).toContain('Next step: the same query with "includeValues": false gives all 10 matches with their metadata;');

      const without = await wide.call("query_vectors", { ...args, includeValues: false });
      const all = (without.structured as { matches: { id: string }[] }).matches;
      expect(all).toHaveLength(10);
      // The values of the left-out matches: the note's fetch_vectors call, followed until every record came back whole.
      const wanted = all.slice(shown).map((m) => m.id);
      let call = callIn(s.note, "fetch_vectors");
      expect(call.ids).toEqual(wanted);
      const got: { id: string; valuesBase64?: string }[] = [];
      for (let step = 0; step < 20 && call; step++) {
        const f = await wide.call("fetch_vectors", call);
        expectWithin(f, 40_000);
        const fs = f.structured as { vectors: { id: string; valuesBase64?: string }[]; note?: string };
        got.push(...fs.vectors);
        call = fs.note ? callIn(fs.note, "fetch_vectors") : (undefined as never);
      }
      expect(got.map((v) => v.id)).toEqual(wanted);
      for (const v of got) {
        const values = [...new Float32Array(Buffer.from(v.valuesBase64!, "base64").buffer.slice(0))];
        expect(values).toEqual(stored(Number(v.id.slice(1))));
      }
    } finally {
      await wide.close();
    }
  });

  test("a bigger --max-result-tokens lets more whole matches through", async () => {
    const wide = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl }, args: ["--max-result-tokens", "40000"] });
    try {
      const listed = wide.tools.find((t) => t.name === "query_vectors")!;
      expect(listed._meta).toEqual({ "anthropic/maxResultSizeChars": 400_000 });
      const narrow = (await mcp.call("query_vectors", args)).structured as { matches: { values?: number[] }[] };
      const r = await wide.call("query_vectors", args);
      expectWithin(r, 40_000);
      const s = r.structured as { matches: { id: string; values: number[] }[] };
      expect(s.matches.length).toBeGreaterThan(narrow.matches.filter((m) => m.values !== undefined).length);
      expect(s.matches[0].id).toBe("d0");
      for (const m of s.matches) expect(m.values.map(f32)).toEqual(stored(Number(m.id.slice(1))));
    } finally {
      await wide.close();
    }
  });
});

describe("search_records topK 100 over long document chunks", () => {
  test("each channel within the budget, whole hits, text first, no bookkeeping in the table; the note's call gets the rest", async () => {
    const r = await mcp.call("search_records", { index: "docs", query: { text: "harbor lantern", topK: 100 } });
    expectWithin(r);
    const s = r.structured as { hits: { id: string; fields: Record<string, unknown> }[]; note: string };
    const shown = s.hits.length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(100);
    const lines = r.text.split("\n");
    expect(lines[0]).toBe(`${shown} of 100 records in namespace "__default__" of index "docs", best first:`);
    expect(lines[2]).toBe("| id | score | body | source | headingPath |");
    for (const h of s.hits) {
      expect(r.text).toContain(`| ${escapeCell(h.id)} | `);
      expect(r.text).toContain(` | ${escapeCell(h.fields.body as string, Infinity)} | ${h.fields.source} | `);
      expect(Object.keys(h.fields).sort()).toEqual(expect.arrayContaining(["body", "chunk", "contentHash", "fileHash", "headingPath", "modified", "source"]));
      expect(r.text).not.toContain(h.fields.contentHash as string);
    }
    expect(r.text).not.toMatch(/contentHash|fileHash|other fields/);

    const call = callIn(s.note, "fetch_vectors");
    expect(s.note).toMatch(new RegExp(`^Hits ${shown + 1}–100 were left out: with every field they would pass this result's budget of 10,000 tokens \\(--max-result-tokens\\)\\. Next step: fetch_vectors \\{`));
    expect((call.ids as string[]).length).toBe(100 - shown);
    const got: string[] = [];
    let next: Record<string, unknown> | undefined = call;
    for (let step = 0; step < 50 && next; step++) {
      const f = await mcp.call("fetch_vectors", next);
      expectWithin(f);
      const fs = f.structured as { vectors: { id: string; metadata: { body: string } }[]; note?: string };
      expect(fs.vectors.every((v) => v.metadata.body.length > 1000)).toBe(true);
      got.push(...fs.vectors.map((v) => v.id));
      next = fs.note ? callIn(fs.note, "fetch_vectors") : undefined;
    }
    expect(got).toEqual(call.ids);
    expect(new Set([...got, ...s.hits.map((h) => h.id)]).size).toBe(100);
  });

  test("fields asked for by name are shown, bookkeeping too", async () => {
    const r = await mcp.call("search_records", { index: "docs", query: { text: "lantern", topK: 2 }, fields: ["chunk", "body"] });
    expect(r.text.split("\n")[2]).toBe("| id | score | body | chunk |");
  });
});

describe("fetch_vectors of 1,000 ids", () => {
  test("each channel within the budget, whole records in the order given; the note's call gets the rest until all are read", async () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `r${String(i).padStart(4, "0")}`);
    const first = await mcp.call("fetch_vectors", { index: "small", ids });
    expectWithin(first);
    const s = first.structured as { vectors: { id: string; metadata: { summary: string } }[]; note: string };
    const shown = s.vectors.length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(1000);
    expect(s.vectors.map((v) => v.id)).toEqual(ids.slice(0, shown));
    expect(first.text.split("\n")[0]).toBe(`The first ${shown} of the 1000 ids given: ${shown} records found in namespace "__default__" of index "small":`);
    expect(s.note).toMatch(new RegExp(`^The other ${1000 - shown} ids \\(from "${ids[shown]}", the ${shown + 1}(st|nd|rd|th) given, on\\) were left out: with their metadata they would pass this result's budget of 10,000 tokens \\(--max-result-tokens\\)\\. Next step: fetch_vectors `));

    // Follow the notes: each names the ids from a position on (or lists them), and the calls read every record once.
    const read = [...s.vectors];
    let given = ids;
    let note: string | undefined = s.note;
    for (let step = 0; step < 30 && note; step++) {
      const position = Number(/the (\d+)(?:st|nd|rd|th) given/.exec(note)![1]);
      given = given.slice(position - 1);
      const r = await mcp.call("fetch_vectors", { index: "small", ids: given });
      expectWithin(r);
      const rs = r.structured as { vectors: typeof s.vectors; note?: string };
      read.push(...rs.vectors);
      note = rs.note;
    }
    expect(read.map((v) => v.id)).toEqual(ids);
    expect(read[999].metadata.summary).toBe(paragraph(999, 20));
  });
});

describe("pages cut short", () => {
  test("fetch_by_metadata: whole records within the budget, no paginationToken past a cut, and the smaller page the note names reads them all", async () => {
    const filter = { title: { $exists: true } };
    const r = await mcp.call("fetch_by_metadata", { index: "small", filter, limit: 1000 });
    expectWithin(r);
    const s = r.structured as { vectors: { id: string }[]; paginationToken?: string; note: string };
    const shown = s.vectors.length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(1000);
    expect(s.paginationToken).toBeUndefined();
    expect(s.note).toBe(
      `The other ${1000 - shown} records of this page were left out: they would pass this result's budget of 10,000 tokens (--max-result-tokens). ` +
        `Next step: the same call with "limit": ${shown - Math.ceil(shown / 10)}, then each page's paginationToken, reads every record.`,
    );
    const read: string[] = [];
    let token: string | undefined;
    for (let page = 0; page < 30; page++) {
      const p = await mcp.call("fetch_by_metadata", { index: "small", filter, limit: shown - Math.ceil(shown / 10), ...(token && { paginationToken: token }) });
      expectWithin(p);
      const ps = p.structured as { vectors: { id: string }[]; paginationToken?: string; note?: string };
      if (ps.paginationToken) expect(ps.note).toBe(`More records match: call again with paginationToken ${JSON.stringify(ps.paginationToken)}.`);
      read.push(...ps.vectors.map((v) => v.id));
      token = ps.paginationToken;
      if (!token) break;
    }
    expect(new Set(read).size).toBe(1000);
  });

  test("list_vector_ids: ids of 500 characters, as many as the budget holds, and the smaller page the note names", async () => {
    const dense = (await api(svc, "GET", "/indexes/small")).body.host as string;
    const long = Array.from({ length: 100 }, (_, i) => `${String(i).padStart(3, "0")}${"q".repeat(497)}`);
    await upsert(dense, long.map((id) => ({ id, values: [1, 1, 1, 1] })), "long");
    const r = await mcp.call("list_vector_ids", { index: "small", namespace: "long" });
    expectWithin(r);
    const s = r.structured as { ids: string[]; paginationToken?: string; note: string };
    expect(s.ids).toEqual(long.slice(0, s.ids.length));
    expect(s.ids.length).toBeLessThan(100);
    expect(s.paginationToken).toBeUndefined();
    const limit = s.ids.length - Math.ceil(s.ids.length / 10);
    expect(s.note).toContain(`Next step: call list_vector_ids again with "limit": ${limit} (and the same index, namespace and prefix), then each page's paginationToken.`);
    const next = await mcp.call("list_vector_ids", { index: "small", namespace: "long", limit });
    expectWithin(next);
    expect((next.structured as { ids: string[] }).ids).toEqual(long.slice(0, limit));
    expect((next.structured as { paginationToken?: string }).paginationToken).toBeDefined();
  });
});

describe("embed_texts", () => {
  test("96 long inputs: whole vectors within the budget, in order, and the inputs to embed again for the rest", async () => {
    const inputs = Array.from({ length: 96 }, (_, i) => Array.from({ length: 300 }, (_, w) => `w${i}x${w}`).join(" "));
    const r = await mcp.call("embed_texts", { model: "local-bm25", inputs, inputType: "passage" });
    expectWithin(r);
    const s = r.structured as { embeddings: { sparseTokens: string[] }[]; note: string };
    const shown = s.embeddings.length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(96);
    expect(s.embeddings.every((e, i) => e.sparseTokens.includes(`w${i}x299`))).toBe(true);
    expect(s.note).toMatch(new RegExp(`^The vectors of inputs ${shown + 1}–96 were left out: .* Next step: embed_texts again with the same model and inputType and the inputs from the ${shown + 1}(st|nd|rd|th) on, ${shown} at a time\\.$`));
    const next = await mcp.call("embed_texts", { model: "local-bm25", inputs: inputs.slice(shown, 2 * shown), inputType: "passage" });
    expectWithin(next);
    expect((next.structured as typeof s).embeddings.map((e) => e.sparseTokens.includes(`w${shown}x0`))[0]).toBe(true);
    expect((next.structured as typeof s).embeddings).toHaveLength(shown);
  });
});

describe("rerank_documents", () => {
  test("1000 long documents: the most relevant whole within the budget; the parts the note names rank every one", async () => {
    const documents = Array.from({ length: 1000 }, (_, i) => ({ id: `doc${i}`, text: paragraph(i, 60) }));
    const r = await mcp.call("rerank_documents", { model: "local-bm25-rerank", query: "harbor lantern fog", documents });
    expectWithin(r);
    const s = r.structured as { results: { position: number; document: { text: string } }[]; note: string };
    const shown = s.results.length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(1000);
    expect(s.results.every((x) => x.document.text === documents[x.position].text)).toBe(true);
    const part = Number(/in parts of at most (\d+) with "returnDocuments": false, or a bigger --max-result-tokens\.$/.exec(s.note)![1]);
    expect(s.note.startsWith(`Results ${shown + 1}–1000 were left out: with their documents they would pass this result's budget of 10,000 tokens (--max-result-tokens). `)).toBe(true);
    expect(part).toBeGreaterThan(shown);
    const positions: number[] = [];
    let all: ToolCall | undefined;
    for (let from = 0; from < 1000; from += part) {
      all = await mcp.call("rerank_documents", { model: "local-bm25-rerank", query: "harbor lantern fog", documents: documents.slice(from, from + part), returnDocuments: false });
      expectWithin(all);
      expect((all.structured as { note?: string }).note).toBeUndefined();
      positions.push(...(all.structured as { results: { position: number }[] }).results.map((x) => from + x.position));
    }
    expect(new Set(positions).size).toBe(1000);
    expect(all!.text.split("\n")[2]).toBe("| rank | position | id | score |");
  });
});
