// index_documents: 2,000 generated Markdown files (≈ 20 MB, headings and paragraphs) into a local-bm25 index, against
// the official client's upsertRecords loop given the same chunks already made (96 a request, 8 at a time) on the same
// service in the same run — we also read and chunk the files; then a re-run with nothing changed, against our first run
// (it reads no file: their size and modification time are what their first chunks record).
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Pinecone } from "@pinecone-database/pinecone";
import { chunkSections } from "../src/ingest/documents/chunks.js";
import { chunkingOf, documentRecords } from "../src/ingest/documents/document-records.js";
import { markdownSections } from "../src/ingest/documents/sections.js";
import { connectServer, createIndexForModel, ratioLine, tempDir, upsertRecordsLoop, withService } from "./lib.js";

const FILES = Number(process.env.BENCH_DOCS_FILES ?? 2000);
const CHUNK = { size: 2000, overlap: 200 }; // what index_documents picks for local-bm25

const WORDS = "river stone garden lamp paper window cloud bread music orbit harbor lantern copper meadow violin ledger summit compiler tide pepper".split(" ");

/** A note of ≈ 10 KB: a title, three sections of three subsections, paragraphs of 50–90 words. */
function note(i: number): string {
  let seed = i * 2654435761;
  const next = () => ((seed = (seed * 1103515245 + 12345) >>> 0) % 1000) / 1000;
  const paragraph = () => Array.from({ length: 50 + Math.floor(next() * 40) }, () => WORDS[Math.floor(next() * WORDS.length)]).join(" ") + ".";
  const parts = [`# Note ${i}`, paragraph()];
  for (let s = 0; s < 3; s++) {
    parts.push(`## Part ${s}`, paragraph());
    for (let t = 0; t < 3; t++) parts.push(`### Detail ${s}.${t}`, paragraph(), paragraph());
  }
  return parts.join("\n\n") + "\n";
}


export async function benchDocuments(): Promise<{ first: number; rerun: number }> {
  const dir = await tempDir("vecdb-bench-docs-");
  const notes = join(dir, "notes");
  let bytes = 0;
  const texts: string[] = [];
  // Notes an hour old, as notes usually are: a file changed less than 2 s before a run is read again by the next one.
  const aged = new Date(Date.now() - 3_600_000);
  for (let i = 0; i < FILES; i++) {
    const folder = join(notes, `f${i % 20}`);
    if (i < 20) mkdirSync(folder, { recursive: true });
    const text = note(i);
    texts.push(text);
    bytes += Buffer.byteLength(text);
    writeFileSync(join(folder, `n${i}.md`), text);
    utimesSync(join(folder, `n${i}.md`), aged, aged);
  }
  // The reference gets the chunks already made: the same records index_documents writes.
  const records = texts.flatMap((text, i) =>
    documentRecords(`notes/f${i % 20}/n${i}.md`, { size: Buffer.byteLength(text), mtimeMs: Date.now() }, Date.now(), chunkSections(markdownSections(text), CHUNK), chunkingOf(CHUNK)).map((r) => ({ _id: r.id, text: r.text, ...r.metadata })),
  );
  try {
    return await withService(async (service) => {
      const pc = new Pinecone({ apiKey: service.apiKey, controllerHostUrl: service.controlUrl });
      const refHost = await createIndexForModel(pc, "ref-docs");
      await createIndexForModel(pc, "ours-docs");
      const { client, close } = await connectServer(service, {}, ["--allow-dir", dir]);
      try {
        let start = performance.now();
        await upsertRecordsLoop(pc, "ref-docs", refHost, "bench", records);
        const referenceMs = performance.now() - start;

        const call = async () => {
          const t = performance.now();
          const r = await client.callTool({ name: "index_documents", arguments: { index: "ours-docs", namespace: "bench", paths: ["notes"] } }, undefined, { timeout: 900_000 });
          if (r.isError) throw new Error(`index_documents failed: ${JSON.stringify(r.content).slice(0, 500)}`);
          return { ms: performance.now() - t, s: r.structuredContent as Record<string, number> };
        };
        const first = await call();
        if (first.s.chunks !== records.length) throw new Error(`index_documents made ${first.s.chunks} chunks, the reference ${records.length}`);
        const rerun = await call();
        if (rerun.s.unchanged !== records.length || rerun.s.upserted !== 0) throw new Error(`the re-run sent ${rerun.s.upserted} chunks`);
        if (rerun.s.filesRead !== 0) throw new Error(`the re-run read ${rerun.s.filesRead} files`);

        const label = `index_documents ${FILES} Markdown files (${(bytes / 1e6).toFixed(1)} MB, ${records.length} chunks, local-bm25)`;
        process.stdout.write(`${ratioLine(label, records.length / (first.ms / 1000), records.length / (referenceMs / 1000), "chunks/s", "≥ 0.8×")}\n`);
        process.stdout.write(
          `index_documents re-run with nothing changed: ${rerun.ms.toFixed(0)} ms, ${((rerun.ms / first.ms) * 100).toFixed(1)}% of the first run's ${first.ms.toFixed(0)} ms (target < 5%)\n`,
        );
        return { first: referenceMs / first.ms, rerun: rerun.ms / first.ms };
      } finally {
        await close();
      }
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
