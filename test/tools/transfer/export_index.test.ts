// export_index end to end: the built server over stdio, the local service over HTTP, files written under a temp
// folder. An export read back by import_vectors (Parquet and JSONL) and by the service's own bulk import gives the
// same records (ids, float32 values, sparse values, metadata); files split by recordsPerFile; every refusal writes
// nothing; a cancelled export leaves only complete files.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { float32ToString } from "../../../src/common/float32.js";
import { openParquet } from "../../../src/ingest/sources/index.js";
import { nothingWas } from "../../../src/tool-kit/refusal.js";
import { startServiceProcess, type RunningService } from "../../helpers/local-service.js";
import { startMcp, type McpSession } from "../../helpers/mcp-client.js";
import { until } from "../../helpers/until.js";
import { api, createIndex, dataUrl, fetchVectors, indexStats, randomVector, serverless } from "../../e2e/support.js";

const DIM = 8;
let svc: RunningService;
let mcp: McpSession;
let base: string;
let allowed: string;
let srcHost = "";

interface Rec { id: string; values: number[]; sparseValues?: { indices: number[]; values: number[] }; metadata?: Record<string, unknown> }

// Values with many digits (fround is visible), sparse values on some, metadata of every JSON kind on most.
const rec = (i: number, prefix: string): Rec => ({
  id: `${prefix}${String(i).padStart(5, "0")}`,
  values: randomVector(DIM, i + 7).map((x) => x * 0.987654321987),
  ...(i % 3 === 0 && { sparseValues: { indices: [i % 50, 100 + (i % 7), 4_000_000_000], values: [0.1 * i + 0.333333333, -2.5, 1e-7] } }),
  ...(i % 5 !== 4 && { metadata: { n: i, tag: i % 2 ? "odd" : "even", words: ["a", `w${i}`], ok: i % 4 === 0, text: `line "${i}"\nwith ünïcode` } }),
});

const sets: Record<string, Rec[]> = {
  "": Array.from({ length: 250 }, (_, i) => rec(i, "d-")),
  books: Array.from({ length: 2300 }, (_, i) => rec(i, "b-")),
};

async function upsert(host: string, namespace: string, records: Rec[]): Promise<void> {
  for (let i = 0; i < records.length; i += 500) {
    const res = await api(svc, "POST", `${dataUrl(host)}/vectors/upsert`, { namespace, vectors: records.slice(i, i + 500) });
    if (res.status !== 200) throw new Error(`upsert: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

/** The records of `namespace` of the index at `host`, by id, as the service gives them. */
async function stored(host: string, namespace: string, ids: string[]) {
  return fetchVectors(svc, host, ids, namespace);
}

async function expectSameRecords(host: string) {
  for (const [ns, records] of Object.entries(sets)) {
    const ids = records.map((r) => r.id);
    expect(await stored(host, ns, ids)).toEqual(await stored(srcHost, ns, ids));
    expect((await indexStats(svc, host)).namespaces[ns]?.vectorCount).toBe(records.length);
  }
}

let fresh = 0;
async function freshIndex(): Promise<{ name: string; host: string }> {
  const name = `copy${++fresh}`;
  return { name, host: (await createIndex(svc, { name, dimension: DIM, metric: "dotproduct", spec: serverless })).host };
}

const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)).map((p) => `${e.name}/${p}`) : [e.name])).sort();

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), "vecdb-export-"));
  allowed = join(base, "allowed");
  mkdirSync(allowed);
  mkdirSync(join(base, "outside"));
  svc = await startServiceProcess({ allowDirs: [allowed] });
  srcHost = (await createIndex(svc, { name: "src", dimension: DIM, metric: "dotproduct", spec: serverless })).host;
  for (const [ns, records] of Object.entries(sets)) await upsert(srcHost, ns, records);
  mcp = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl }, args: ["--allow-dir", allowed] });
});

afterAll(async () => {
  await mcp?.close();
  await svc?.stop();
  if (base) rmSync(base, { recursive: true, force: true });
});

describe("export_index writes an index to files that read back as the same records", () => {
  it("Parquet, one folder per namespace: import_vectors of each file into a fresh index gives identical records", async () => {
    const r = await mcp.call("export_index", { index: "src", folder: "pq" }, { progress: true });
    expect(r.isError, r.text).toBe(false);
    const folder = join(allowed, "pq");
    expect(walk(folder)).toEqual(["__default__/part-00000.parquet", "books/part-00000.parquet"]);
    expect(r.structured).toMatchObject({
      index: "src", folder, format: "parquet", records: 2550, vanished: 0,
      namespaces: [{ namespace: "__default__", records: 250, files: 1 }, { namespace: "books", records: 2300, files: 1 }],
      files: [
        { namespace: "__default__", path: join(folder, "__default__", "part-00000.parquet"), records: 250 },
        { namespace: "books", path: join(folder, "books", "part-00000.parquet"), records: 2300 },
      ],
    });
    expect(r.structured).not.toHaveProperty("stopped");
    expect(r.text).toMatch(new RegExp(`^Exported 2550 records of index "src" \\(2 namespaces\\) to ${folder} as Parquet files in the hosted service's bulk-import layout, [0-9.]+ kB in [0-9.]+ s\\.\n\n\\| namespace \\| folder \\| files \\| records \\| size \\|`));
    expect(r.text).toContain(`| books | ${folder}/books | 1 | 2300 |`);
    expect(r.text).toContain('Next step: To load them into the hosted service: upload the folder\'s contents to object storage (e.g. s3://BUCKET/PATH/__default__/part-00000.parquet), then call start_bulk_import with uri "s3://BUCKET/PATH/"');
    expect(r.progress.at(-1)).toMatchObject({ progress: 2550, total: 2550, message: "2550 of about 2550 records written" });

    const target = await freshIndex();
    for (const [ns, dir] of [["", "__default__"], ["books", "books"]]) {
      const back = await mcp.call("import_vectors", { index: target.name, namespace: ns, path: `pq/${dir}/part-00000.parquet` });
      expect(back.isError, back.text).toBe(false);
    }
    await expectSameRecords(target.host);
  });

  it("the Parquet columns are the documented layout: id, values list<float>, sparse_values, metadata as JSON text", async () => {
    const source = await openParquet(join(allowed, "pq", "books", "part-00000.parquet"));
    const items = [];
    for await (const item of source.records()) items.push(item);
    await source.close();
    expect(items).toHaveLength(2300);
    const first = sets.books[0];
    expect(items[0].record).toEqual({ id: first.id, values: first.values.map(Math.fround), sparseValues: { indices: first.sparseValues!.indices, values: first.sparseValues!.values.map(Math.fround) }, metadata: first.metadata });
    expect(items[4].record).toEqual({ id: sets.books[4].id, values: sets.books[4].values.map(Math.fround) }); // no sparse values, no metadata
  });

  it("the service's own bulk import (start_bulk_import, file://) reads the Parquet export into identical records", async () => {
    const target = await freshIndex();
    const started = await mcp.call("start_bulk_import", { index: target.name, uri: pathToFileURL(join(allowed, "pq")).href });
    expect(started.isError, started.text).toBe(false);
    const id = started.structured?.id as string;
    await until(async () => ((await mcp.call("describe_bulk_import", { index: target.name, id })).structured?.import as { status: string }).status === "Completed", "the bulk import to complete");
    await expectSameRecords(target.host);
  });

  it("JSONL, split by recordsPerFile: import_vectors of each file gives identical records", async () => {
    const r = await mcp.call("export_index", { index: "src", folder: join(allowed, "deep", "jl"), format: "jsonl", recordsPerFile: 1000 });
    expect(r.isError, r.text).toBe(false);
    const folder = join(allowed, "deep", "jl");
    expect(walk(folder)).toEqual(["__default__/part-00000.jsonl", "books/part-00000.jsonl", "books/part-00001.jsonl", "books/part-00002.jsonl"]);
    expect((r.structured?.files as { records: number }[]).map((f) => f.records)).toEqual([250, 1000, 1000, 300]);
    expect(r.text).toContain('Next step: The hosted service\'s bulk import reads Parquet only; export with format "parquet" for start_bulk_import.');
    // One upsert_vectors record a line, values as the shortest decimals of their 32-bit floats.
    const b0 = sets.books[0];
    const floats = (v: number[]) => v.map(float32ToString).join(",");
    expect(readFileSync(join(folder, "books", "part-00000.jsonl"), "utf8").split("\n")[0]).toBe(
      `{"id":"b-00000","values":[${floats(b0.values)}],"sparse_values":{"indices":[${b0.sparseValues!.indices.join(",")}],"values":[${floats(b0.sparseValues!.values)}]},"metadata":${JSON.stringify(b0.metadata)}}`,
    );

    const target = await freshIndex();
    for (const f of walk(folder)) {
      const back = await mcp.call("import_vectors", { index: target.name, namespace: f.startsWith("__default__") ? "" : "books", path: join(folder, f) });
      expect(back.isError, back.text).toBe(false);
    }
    await expectSameRecords(target.host);
  });

  it("only the namespaces named (the default one by either name)", async () => {
    const r = await mcp.call("export_index", { index: "src", folder: "only-default", namespaces: ["__default__"], format: "jsonl" });
    expect(r.isError, r.text).toBe(false);
    expect(walk(join(allowed, "only-default"))).toEqual(["__default__/part-00000.jsonl"]);
    expect(r.structured?.records).toBe(250);
  });
});

describe("an index that embeds text", () => {
  it("JSONL holds upsert_records records, which an index for the same model imports into identical records", async () => {
    const notes = Array.from({ length: 60 }, (_, i) => ({ _id: `n-${i}`, text: `note ${i} about ${i % 2 ? "otters" : "kestrels"} and "quotes"`, topic: i % 3 ? "nature" : "birds" }));
    const create = (name: string) => mcp.call("create_index_for_model", { name, cloud: "aws", region: "us-east-1", embed: { model: "local-bm25", fieldMap: { text: "text" } } });
    expect((await create("notes")).isError).toBe(false);
    expect((await mcp.call("upsert_records", { index: "notes", namespace: "journal", records: notes })).isError).toBe(false);
    const r = await mcp.call("export_index", { index: "notes", folder: "notes-jl", format: "jsonl" });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain(`as JSONL files of upsert_records records (the index embeds text: an index for the same model embeds them again on import)`);
    const file = join(allowed, "notes-jl", "journal", "part-00000.jsonl");
    expect(readFileSync(file, "utf8").split("\n")[0]).toBe(JSON.stringify(notes[0]));

    expect((await create("notes2")).isError).toBe(false);
    const back = await mcp.call("import_vectors", { index: "notes2", namespace: "journal", path: file });
    expect(back.isError, back.text).toBe(false);
    const hostOf = async (name: string) => (await api(svc, "GET", `/indexes/${name}`)).body.host as string;
    const ids = notes.map((n) => n._id);
    const before = await stored(await hostOf("notes"), "journal", ids);
    expect(Object.keys(before)).toHaveLength(60);
    expect(await stored(await hostOf("notes2"), "journal", ids)).toEqual(before);
  });
});

describe("export_index refuses, writing nothing", () => {
  it("a folder that holds anything, outside the allowed folders, or through a link out of them", async () => {
    mkdirSync(join(allowed, "used"));
    writeFileSync(join(allowed, "used", "keep.txt"), "mine");
    const used = await mcp.call("export_index", { index: "src", folder: "used" });
    expect(used.isError).toBe(true);
    expect(used.text).toBe(
      `Refused: ${join(allowed, "used")} already holds 1 entry ("keep.txt"); an export never replaces or mixes with existing files. Give a new or empty folder. Allowed directories: ${allowed}. ${nothingWas("written")}`,
    );
    expect(walk(join(allowed, "used"))).toEqual(["keep.txt"]);

    const out = await mcp.call("export_index", { index: "src", folder: join(base, "outside", "x") });
    expect(out.text).toBe(`Refused: ${join(base, "outside", "x")} is outside the allowed directories. Allowed directories: ${allowed}. ${nothingWas("written")}`);
    const climb = await mcp.call("export_index", { index: "src", folder: "../outside/y" });
    expect(climb.text).toBe(`Refused: "../outside/y" climbs out of the allowed directories with ".." (it resolves to ${join(base, "outside", "y")}). Allowed directories: ${allowed}. ${nothingWas("written")}`);
    symlinkSync(join(base, "outside"), join(allowed, "link"));
    const link = await mcp.call("export_index", { index: "src", folder: "link/z" });
    expect(link.text).toBe(`Refused: ${join(allowed, "link", "z")} leads outside the allowed directories (through a link). Allowed directories: ${allowed}. ${nothingWas("written")}`);
    expect(readdirSync(join(base, "outside"))).toEqual([]);
  });

  it("namespaces with no records, and an index with none", async () => {
    const r = await mcp.call("export_index", { index: "src", folder: "nope", namespaces: ["books", "films"] });
    expect(r.text).toBe(
      `Index "src" has no records in the namespace "films" (namespaces with records: "__default__", "books"). ${nothingWas("written")}\nNext step: call again naming namespaces that hold records, or without namespaces to export them all.`,
    );
    await createIndex(svc, { name: "empty", dimension: DIM, spec: serverless });
    const empty = await mcp.call("export_index", { index: "empty", folder: "nope" });
    expect(empty.text).toBe(`Index "empty" holds no records. ${nothingWas("written")}`);
    expect(existsSync(join(allowed, "nope"))).toBe(false);
  });
});

describe("a cancelled export", () => {
  it("leaves only complete files, each one readable", async () => {
    const big = Array.from({ length: 20_000 }, (_, i) => ({ id: `x${i}`, values: randomVector(DIM, i) }));
    await upsert(srcHost, "big", big);
    const controller = new AbortController();
    let progressed = 0;
    const call = mcp.client
      .callTool({ name: "export_index", arguments: { index: "src", folder: "cancelled", namespaces: ["big"], recordsPerFile: 1000 } }, undefined, {
        signal: controller.signal,
        onprogress: () => {
          if (++progressed === 15) controller.abort();
        },
      })
      .catch((e: unknown) => e);
    await call;
    expect(progressed).toBeGreaterThanOrEqual(15);
    // The server lets go of the call and removes the file it was writing: every file left is complete.
    const folder = join(allowed, "cancelled", "big");
    let files: string[] = [];
    await until(async () => {
      files = readdirSync(folder);
      const rows = await Promise.all(files.map(async (f) => {
        const source = await openParquet(join(folder, f)).catch(() => undefined);
        const n = await source?.count();
        await source?.close();
        return n;
      }));
      return rows.every((n) => n === 1000);
    }, "only complete files to be left");
    expect(files.length).toBeGreaterThan(0);
    expect(files.length).toBeLessThan(20); // it stopped before the end
  });
});
