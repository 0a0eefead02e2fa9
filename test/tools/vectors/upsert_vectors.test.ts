// upsert_vectors end to end: the built server over stdio against the local service (test/tools/fixtures/project.ts),
// checked on the service itself.
import { float32Double } from "../../../src/common/float32.js";
import { describe, expect, test } from "vitest";
import { docsHost, mcp, sparseHost, svc, useProjectFixture, useThreeIndexes } from "../fixtures/project.js";
import { api, createIndex, fetchVectors, indexStats, serverless } from "../../e2e/support.js";
import { nothingWas } from "../../../src/tool-kit/refusal.js";
import { listingStep } from "../../../src/tool-kit/missing-resource.js";
import { refusalOf } from "../../helpers/refusal.js";

useProjectFixture();

describe("with indexes", () => {
  useThreeIndexes();

  test("upsert_vectors: the exact table, and the records on the service", async () => {
    const r = await mcp.call("upsert_vectors", {
      index: "docs",
      namespace: "books",
      vectors: [
        { id: "a", values: [0.1, 0.2, 0.3, 0.4], metadata: { genre: "sf", year: 1965, tags: ["x", "y"], ok: true } },
        { id: "b", values: [1, 2, 3, 4] },
      ],
    });
    expect(r.isError).toBe(false);
    const s = r.structured as Record<string, unknown>;
    expect(s).toMatchObject({ index: "docs", namespace: "books", records: 2, batches: 1, upserted: 2, failed: 0, failedIds: [], failures: [] });
    expect(s).not.toHaveProperty("host");
    expect(r.text).toBe(
      [
        "| index | namespace | records | batches | upserted | failed | seconds |",
        "| --- | --- | --- | --- | --- | --- | --- |",
        `| docs | books | 2 | 1 | 2 | 0 | ${(s.seconds as number).toFixed(2)} |`,
      ].join("\n"),
    );
    const got = await fetchVectors(svc, docsHost, ["a", "b"], "books");
    expect(got.a.values).toEqual([0.1, 0.2, 0.3, 0.4].map(float32Double));
    expect(got.a.metadata).toEqual({ genre: "sf", year: 1965, tags: ["x", "y"], ok: true });
    expect(got.b.values).toEqual([1, 2, 3, 4]);
  });

  test("upsert_vectors into a sparse index and the default namespace", async () => {
    const r = await mcp.call("upsert_vectors", {
      index: "sparse",
      vectors: [{ id: "s1", sparseValues: { indices: [3, 4294967295], values: [0.5, 0.25] } }],
    });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("| sparse | __default__ | 1 | 1 | 1 | 0 |");
    const got = await fetchVectors(svc, sparseHost, ["s1"]);
    expect(got.s1.sparseValues).toEqual({ indices: [3, 4294967295], values: [0.5, 0.25] });
  });

  test("upsert_vectors: a sparse record with an empty dense list, as fetch returns it, is written", async () => {
    const r = await mcp.call("upsert_vectors", {
      index: "sparse",
      vectors: [{ id: "s2", values: [], sparseValues: { indices: [7], values: [0.5] } }],
    });
    expect(r.isError).toBe(false);
    expect((await fetchVectors(svc, sparseHost, ["s2"])).s2.sparseValues).toEqual({ indices: [7], values: [0.5] });
  });

  test("upsert_vectors sends progress notifications per batch", async () => {
    const vectors = Array.from({ length: 250 }, (_, i) => ({ id: `p${i}`, values: [i, 1, 2, 3] }));
    const r = await mcp.call("upsert_vectors", { index: "docs", namespace: "progress", vectors }, { progress: true });
    expect(r.structured).toMatchObject({ records: 250, batches: 3, upserted: 250, failed: 0 });
    // One per batch: 100, 200, 250. (The SDK client may drop one that arrives in the same read as the result —
    // typescript-sdk#2580 — which the server's short settle makes unlikely but cannot rule out on a loaded machine.)
    expect(r.progress.length).toBeGreaterThanOrEqual(2);
    for (const p of r.progress) expect(p).toMatchObject({ progress: expect.any(Number), total: 250, message: `${p.progress} of 250 records written` });
    expect(r.progress.map((p) => p.progress).every((v) => [100, 200, 250].includes(v))).toBe(true);
    expect(r.progress.map((p) => p.progress)).toEqual([...r.progress.map((p) => p.progress)].sort((x, y) => x - y));
    expect((await indexStats(svc, docsHost)).namespaces.progress.vectorCount).toBe(250);
  });

  describe("upsert_vectors refuses bad records, naming position, id and rule, and writes nothing", () => {
    const long = "x".repeat(513);
    const cases: [string, Record<string, unknown>[], string, string?][] = [
      ["a dense vector of the wrong dimension", [{ id: "ok", values: [1, 2, 3, 4] }, { id: "short", values: [1, 2, 3] }], `- position 1 (id "short"): values has 3 values but index 'docs' has dimension 4`],
      ["a missing dense vector", [{ id: "none" }], `- position 0 (id "none"): values is missing; index 'docs' is dense and needs 4 values per record`],
      ["an empty dense vector", [{ id: "empty", values: [] }], `- position 0 (id "empty"): values has 0 values but index 'docs' has dimension 4`],
      ["a negative sparse index", [{ id: "n", values: [1, 2, 3, 4], sparseValues: { indices: [1, -1], values: [1, 2] } }], `record at position 0, sparseValues.indices[1] is -1: sparse indices are unsigned 32-bit integers (0–4294967295). ${nothingWas("written")}`],
      ["a sparse index past 32 bits", [{ id: "n", values: [1, 2, 3, 4], sparseValues: { indices: [4294967296], values: [1] } }], `record at position 0, sparseValues.indices[0] is 4294967296: sparse indices are unsigned 32-bit integers (0–4294967295). ${nothingWas("written")}`],
      ["a fractional sparse index", [{ id: "n", values: [1, 2, 3, 4], sparseValues: { indices: [1.5], values: [1] } }], `record at position 0, sparseValues.indices[0] is 1.5: sparse indices are unsigned 32-bit integers (0–4294967295). ${nothingWas("written")}`],
      ["sparse indices and values of different lengths", [{ id: "m", values: [1, 2, 3, 4], sparseValues: { indices: [1, 2], values: [1] } }], `- position 0 (id "m"): sparseValues has 2 indices but 1 values; they must be the same length`],
      ["an empty id", [{ id: "", values: [1, 2, 3, 4] }], `record at position 0, id is "": record ids are 1–512 characters. ${nothingWas("written")}`],
      ["an id of 513 characters", [{ id: "fine", values: [1, 2, 3, 4] }, { id: long, values: [1, 2, 3, 4] }], `record at position 1, id is "${"x".repeat(40)}…" (513 characters): record ids are 1–512 characters. ${nothingWas("written")}`],
      ["a null metadata value", [{ id: "md", values: [1, 2, 3, 4], metadata: { genre: null } }], `- position 0 (id "md"): metadata.genre is null; leave the field out instead`],
      ["a nested metadata object", [{ id: "md", values: [1, 2, 3, 4], metadata: { info: { a: 1 } } }], `- position 0 (id "md"): metadata.info is an object; values must be a string, number, boolean or list of strings (no nested objects)`],
      ["a metadata list of numbers", [{ id: "md", values: [1, 2, 3, 4], metadata: { tags: [1, 2] } }], `- position 0 (id "md"): metadata.tags is a list with non-string items; lists may hold only strings`],
      ["metadata over 40 KB", [{ id: "big", values: [1, 2, 3, 4], metadata: { text: "y".repeat(41_000) } }], `- position 0 (id "big"): metadata is 41011 bytes as JSON; at most 40960 bytes per record are allowed`],
      ["duplicate ids in one call", [{ id: "d", values: [1, 2, 3, 4] }, { id: "e", values: [1, 2, 3, 4] }, { id: "d", values: [4, 3, 2, 1] }], `- position 2 (id "d"): id is a duplicate of position 0; each id may appear once per call`],
      ["no records at all", [], `vectors: give 1–10000 records per call. ${nothingWas("written")}`],
      ["dense values for a sparse index", [{ id: "sv", values: [1, 2], sparseValues: { indices: [1], values: [1] } }], `- position 0 (id "sv"): values has 2 values but index 'sparse' is sparse; give only sparseValues`, "sparse"],
    ];
    test.each(cases)("%s", async (_name, vectors, message, index = "docs") => {
      const host = index === "docs" ? docsHost : sparseHost;
      const before = await indexStats(svc, host);
      const r = await mcp.call("upsert_vectors", { index, namespace: "bad", vectors });
      expect(r.isError).toBe(true);
      expect(r.text).toContain(message);
      expect(r.text).not.toMatch(/\n\s+at /); // no stack trace
      expect(await indexStats(svc, host)).toEqual(before);
    });

    test("a namespace of 513 characters", async () => {
      const r = await mcp.call("upsert_vectors", { index: "docs", namespace: "n".repeat(513), vectors: [{ id: "a", values: [1, 2, 3, 4] }] });
      expect(r.isError).toBe(true);
      expect(r.text).toContain(`namespace is "${"n".repeat(40)}…" (513 characters): namespaces are at most 512 characters. ${nothingWas("written")}`);
    });

    test("ids and namespaces are counted in characters as the service counts them: 512 emoji pass, 513 do not", async () => {
      const id = "😀".repeat(512); // 1024 UTF-16 units
      const ok = await mcp.call("upsert_vectors", { index: "docs", namespace: "🌍".repeat(512), vectors: [{ id, values: [1, 2, 3, 4] }] });
      expect(ok.isError, ok.text).toBeFalsy();
      const got = await mcp.call("fetch_vectors", { index: "docs", namespace: "🌍".repeat(512), ids: [id] });
      expect((got.structured as { vectors: { id: string }[] }).vectors.map((v) => v.id)).toEqual([id]);
      const r = await mcp.call("upsert_vectors", { index: "docs", vectors: [{ id: `${id}😀`, values: [1, 2, 3, 4] }] });
      expect(r.isError).toBe(true);
      expect(r.text).toContain(`id is "${"😀".repeat(40)}…" (513 characters): record ids are 1–512 characters. ${nothingWas("written")}`);
    });

    test('a metadata field named "__proto__" is refused, not silently dropped, and nothing is written', async () => {
      const before = await indexStats(svc, docsHost);
      const metadata = JSON.parse('{"genre":"drama","__proto__":"x"}') as Record<string, unknown>; // an own key, as JSON gives it
      const vectors = [{ id: "p1", values: [1, 2, 3, 4] }, { id: "p2", values: [1, 2, 3, 4], metadata }];
      const r = await mcp.call("upsert_vectors", { index: "docs", namespace: "bad", vectors });
      expect(r.isError).toBe(true);
      expect(r.text).toBe(
        `upsert_vectors: vectors[1].metadata has a field named "__proto__", which this server cannot pass on (JavaScript objects drop that name). Rename the field and call again. ${nothingWas("written")}`,
      );
      expect(await indexStats(svc, docsHost)).toEqual(before);
    });

    test("every problem is listed, and the valid records of the call are not written either", async () => {
      const before = await indexStats(svc, docsHost);
      const r = await mcp.call("upsert_vectors", {
        index: "docs",
        namespace: "bad",
        vectors: [{ id: "good", values: [1, 2, 3, 4] }, { id: "w1", values: [1] }, { id: "w2", values: [1, 2, 3, 4, 5] }],
      });
      expect(refusalOf(r.text)).toEqual({
        problem: [
          '2 problems with the records for index "docs":',
          `- position 1 (id "w1"): values has 1 values but index 'docs' has dimension 4`,
          `- position 2 (id "w2"): values has 5 values but index 'docs' has dimension 4`,
        ].join("\n"),
        untouched: "written",
        next: "fix those records and call upsert_vectors again with the whole list.",
      });
      expect(await indexStats(svc, docsHost)).toEqual(before);
    });
  });

  test('an index named "." or ".." is refused before any call (it would address another URL)', async () => {
    const r = await mcp.call("upsert_vectors", { index: "..", vectors: [{ id: "a", values: [1, 2, 3, 4] }] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`index is "..": "." and ".." are not index names. ${nothingWas("written")}`);
    const c = await mcp.call("create_collection", { name: "c", index: "." });
    expect(c.text).toContain(`index is ".": "." and ".." are not index names. ${nothingWas("created")}`);
  });

  test("upsert_vectors into an unknown index: 404 and the next step", async () => {
    const r = await mcp.call("upsert_vectors", { index: "nope", vectors: [{ id: "a", values: [1, 2, 3, 4] }] });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      "upsert_vectors failed — the service answered HTTP 404 NOT_FOUND: \"Index nope not found.\"\n" +
        `Next step: ${listingStep("index").slice(0, -1)}, or create the index first (create_index; create_index_for_model for records of text).`,
    );
  });

  test("ten upserts to one index: records land in every call", async () => {
    for (let i = 0; i < 10; i++) {
      const r = await mcp.call("upsert_vectors", { index: "docs", namespace: "ten", vectors: [{ id: `t${i}`, values: [i, i, i, i] }] });
      expect(r.structured).toMatchObject({ upserted: 1 });
    }
    expect((await indexStats(svc, docsHost)).namespaces.ten.vectorCount).toBe(10);
  });

  test("an index deleted and created again elsewhere with another dimension: the new dimension is what counts", async () => {
    await createIndex(svc, { name: "again", dimension: 4, spec: serverless });
    expect((await mcp.call("upsert_vectors", { index: "again", vectors: [{ id: "a", values: [1, 2, 3, 4] }] })).isError).toBe(false);
    expect((await api(svc, "DELETE", "/indexes/again")).status).toBe(202);
    for (let i = 0; i < 400 && (await api(svc, "GET", "/indexes/again")).status !== 404; i++) await new Promise((r) => setTimeout(r, 50));
    const again = await createIndex(svc, { name: "again", dimension: 2, spec: serverless });
    const r = await mcp.call("upsert_vectors", { index: "again", vectors: [{ id: "b", values: [1, 2] }] });
    expect(r.isError, r.text).toBe(false);
    expect(Object.keys(await fetchVectors(svc, again.host, ["b"]))).toEqual(["b"]);
  });

  test("several calls at once on one connection each land completely", async () => {
    const calls = Array.from({ length: 6 }, (_, n) =>
      mcp.call("upsert_vectors", { index: "docs", namespace: `par-${n}`, vectors: Array.from({ length: 150 }, (_, i) => ({ id: `x${i}`, values: [n, i, 0, 1] })) }),
    );
    const results = await Promise.all(calls);
    for (const r of results) expect(r.structured).toMatchObject({ records: 150, upserted: 150, failed: 0 });
    const stats = await indexStats(svc, docsHost);
    for (let n = 0; n < 6; n++) expect(stats.namespaces[`par-${n}`].vectorCount).toBe(150);
  });

  test("the API key appears in no result and no stderr line", () => {
    expect(mcp.transcript()).not.toContain(svc.apiKey);
    expect(mcp.stderr()).not.toContain(svc.apiKey);
  });
});

describe("upsert_vectors: dense values outside the schema's limits", () => {
  test.each([
    ["a string among the numbers", [1, "2", 3, 4], `record at position 1, values[1] is a string "2", not a number. ${nothingWas("written")}`],
    ["more than 20000 numbers", new Array(20001).fill(0), `record at position 1, values: dense values are a list of at most 20000 numbers. ${nothingWas("written")}`],
  ])("%s", async (_name, values, message) => {
    const r = await mcp.call("upsert_vectors", { index: "docs", namespace: "bad", vectors: [{ id: "ok", values: [1, 2, 3, 4] }, { id: "v", values }] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(message);
  });
});
