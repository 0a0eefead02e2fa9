// index_documents end to end: the built server over stdio, the local service with a local-bm25 index, a folder of
// Markdown / text / HTML with nested folders, a link leading outside, a binary and a non-UTF-8 file. Then edits
// (a shortened file, a deleted one, a new one) and exact counts on the second run, and a third run that sends nothing
// and reads only the file that was touched. Files get modification times in the past, one second apart at each
// write: a file changed less than 2 s before a run is read again by the next one (RACY_MS), which would blur the
// counts of files read.
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServiceProcess, type RunningService } from "../../helpers/local-service.js";
import { startMcp, type McpSession } from "../../helpers/mcp-client.js";
import { api, createIndex, fetchVectors, indexStats, serverless } from "../../e2e/support.js";
import { refusalOf } from "../../helpers/refusal.js";

let svc: RunningService;
let mcp: McpSession;
let base: string;
let notes: string;
let host = "";

const SETUP = [
  "# Setup",
  "How to install the tool.",
  "## Linux",
  "On Linux the zephyrine package holds everything; install it with apt.",
  "## Windows",
  "On Windows run the installer and restart.",
].join("\n\n");

async function createForModel(name: string): Promise<string> {
  const res = await api(svc, "POST", "/indexes/create-for-model", {
    name,
    cloud: "aws",
    region: "us-east-1",
    embed: { model: "local-bm25", field_map: { text: "body" } },
  });
  if (res.status !== 201) throw new Error(`create-for-model: ${res.status} ${JSON.stringify(res.body)}`);
  for (let i = 0; i < 200; i++) {
    const d = await api(svc, "GET", `/indexes/${name}`);
    if (d.body?.status?.ready) return d.body.host;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("never ready");
}

let written = 0;
/** Writes a file and gives it a modification time an hour ago (a later write a later time). */
function write(path: string, content: string | Buffer): void {
  writeFileSync(path, content);
  const then = new Date(Date.now() - 3_600_000 + 1000 * written++);
  utimesSync(path, then, then);
}

const run = (args: Record<string, unknown> = {}) => mcp.call("index_documents", { index: "notes", paths: ["notes"], chunkSize: 200, chunkOverlap: 0, ...args });
const counts = (s: Record<string, unknown> | undefined) => {
  const { files, filesRead, skipped, chunks, added, changed, unchanged, pruned, upserted } = s as Record<string, number>;
  return { files, filesRead, skipped, chunks, added, changed, unchanged, pruned, upserted };
};

beforeAll(async () => {
  svc = await startServiceProcess();
  host = await createForModel("notes");
  await createIndex(svc, { name: "plain", dimension: 4, spec: serverless });
  base = mkdtempSync(join(tmpdir(), "vecdb-docs-"));
  const allowed = join(base, "allowed");
  notes = join(allowed, "notes");
  const outside = join(base, "outside");
  mkdirSync(join(notes, "deep", "er", "still"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, "secret.md"), "# Secret\n\nThe outside text never lands.");
  write(join(notes, "setup.md"), SETUP);
  write(join(notes, "deep", "er", "still", "garden.md"), "# Garden\n\n## Roses\n\nPrune the roses in late winter before the buds swell.");
  write(join(notes, "plain.txt"), `\uFEFFA plain note about the quorbellian tides, ${"long enough to fill most of a chunk ".repeat(3)}\n\nA second paragraph, ${"also long enough to need a chunk of its own ".repeat(3)}`);
  write(join(notes, "page.html"), "<html><head><title>Recipes</title></head><body><h1>Bread</h1><p>Knead the dough &amp; let it rise.</p><script>no()</script></body></html>");
  write(join(notes, "photo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 1, 2, 3]));
  write(join(notes, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  symlinkSync(join(outside, "secret.md"), join(notes, "link.md"));
  mcp = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl }, args: ["--allow-dir", allowed] });
});

afterAll(async () => {
  await mcp?.close();
  await svc?.stop();
  if (base) rmSync(base, { recursive: true, force: true });
});

describe("index_documents", () => {
  it("a dry run counts files and chunks and writes nothing", async () => {
    const r = await run({ dryRun: true });
    expect(r.isError, r.text).toBe(false);
    expect(counts(r.structured)).toEqual({ files: 4, filesRead: 4, skipped: 3, chunks: 8, added: 8, changed: 0, unchanged: 0, pruned: 0, upserted: 0 });
    expect((await indexStats(svc, host)).totalVectorCount).toBe(0);
    expect(r.text).toContain("Dry run: nothing was written.");
  });

  it("writes every chunk, lists what it skipped and why, and search finds a deep file's sentence with its heading path", async () => {
    const r = await run();
    expect(r.isError, r.text).toBe(false);
    expect(counts(r.structured)).toEqual({ files: 4, filesRead: 4, skipped: 3, chunks: 8, added: 8, changed: 0, unchanged: 0, pruned: 0, upserted: 8 });
    const skipped = Object.fromEntries((r.structured!.skippedFiles as { path: string; reason: string }[]).map((f) => [f.path.slice(notes.length + 1), f.reason]));
    expect(skipped).toEqual({
      "latin1.txt": "not UTF-8 (invalid byte sequences)",
      "link.md": "a symbolic link (links are not followed)",
      "photo.png": "binary content (NUL bytes)",
    });
    expect(r.text).toContain("| files | read | skipped | chunks | added | unchanged | changed | pruned | seconds |");

    const hit = await mcp.call("search_records", { index: "notes", query: { text: "prune roses winter", topK: 3 } });
    expect(hit.isError, hit.text).toBe(false);
    const best = (hit.structured!.hits as { id: string; fields: Record<string, unknown> }[])[0];
    expect(best.id).toBe("allowed/notes/deep/er/still/garden.md#2");
    expect(best.fields).toMatchObject({ source: "allowed/notes/deep/er/still/garden.md", headingPath: "Garden > Roses", chunk: 2, body: "## Roses\n\nPrune the roses in late winter before the buds swell." });
    expect(mcp.transcript()).not.toContain("outside text never lands");
  });

  it("after edits, a second run sends only what changed and prunes what is gone; a third run sends nothing", async () => {
    write(join(notes, "setup.md"), SETUP.split("\n\n## Windows")[0].replace("with apt", "with apt-get")); // shorter, one chunk changed
    unlinkSync(join(notes, "plain.txt"));
    write(join(notes, "new.md"), "# New\n\nA fresh note about kettles.");
    const second = await run();
    expect(second.isError, second.text).toBe(false);
    // setup.md: "Setup" unchanged, "Linux" changed, "Windows" pruned; plain.txt's 2 chunks pruned; new.md added
    // Only setup.md and new.md are read: the others' size and modification time are what their first chunks record.
    expect(counts(second.structured)).toEqual({ files: 4, filesRead: 2, skipped: 3, chunks: 6, added: 1, changed: 1, unchanged: 4, pruned: 3, upserted: 2 });
    const ids = (await api(svc, "GET", `http://${host}/vectors/list?namespace=&limit=100`)).body.vectors.map((v: { id: string }) => v.id).sort();
    // First chunks carry a leading "/": listing "/allowed/notes/" finds one id a file
    expect(ids).toEqual(["/allowed/notes/deep/er/still/garden.md#1", "/allowed/notes/new.md#1", "/allowed/notes/page.html#1", "/allowed/notes/setup.md#1", "allowed/notes/deep/er/still/garden.md#2", "allowed/notes/setup.md#2"]);
    // setup.md's first chunk kept its text (not sent again) but names the file's new version, as its second chunk does,
    // and records the file's chunk count, size, modification time and chunking
    const setup = await fetchVectors(svc, host, ["/allowed/notes/setup.md#1", "allowed/notes/setup.md#2"]);
    expect(setup["/allowed/notes/setup.md#1"].metadata.fileHash).toBe(setup["allowed/notes/setup.md#2"].metadata.fileHash);
    const stat = statSync(join(notes, "setup.md"));
    expect(setup["/allowed/notes/setup.md#1"].metadata).toMatchObject({ chunks: 2, fileBytes: stat.size, modifiedMs: stat.mtimeMs, chunking: "1:200/0" });
    expect(setup["allowed/notes/setup.md#2"].metadata.chunks).toBeUndefined();
    const gone = await mcp.call("search_records", { index: "notes", query: { text: "quorbellian tides", topK: 3 } });
    expect(gone.structured!.hits).toEqual([]);

    // A touched file (new time, same text) is read, found in step by its hash, and its first chunk records the new time.
    const touched = new Date(Date.now() - 1_800_000);
    utimesSync(join(notes, "page.html"), touched, touched);
    const third = await run();
    expect(counts(third.structured)).toEqual({ files: 4, filesRead: 1, skipped: 3, chunks: 6, added: 0, changed: 0, unchanged: 6, pruned: 0, upserted: 0 });
    const page = await fetchVectors(svc, host, ["/allowed/notes/page.html#1"]);
    expect(page["/allowed/notes/page.html#1"].metadata.modifiedMs).toBe(statSync(join(notes, "page.html")).mtimeMs);
    const fourth = await run();
    expect(counts(fourth.structured)).toEqual({ files: 4, filesRead: 0, skipped: 3, chunks: 6, added: 0, changed: 0, unchanged: 6, pruned: 0, upserted: 0 });
  });

  it("refuses an index without integrated embedding, and a path outside the allowed folders, reading nothing", async () => {
    const plain = await mcp.call("index_documents", { index: "plain", paths: ["notes"] });
    expect(plain.isError).toBe(true);
    expect(refusalOf(plain.text)).toEqual({
      problem: 'Index "plain" has no integrated embedding, so it cannot embed documents',
      untouched: "read",
      next: "create an index for a model with create_index_for_model (list_models shows the models), or a documents index with create_documents_index, then call index_documents with it.",
    });
    const out = await mcp.call("index_documents", { index: "notes", paths: ["../outside"] });
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/^Refused: "\.\.\/outside" climbs out of the allowed directories with "\.\."/);
    expect(refusalOf(out.text).untouched).toBe("read");
  });
});
