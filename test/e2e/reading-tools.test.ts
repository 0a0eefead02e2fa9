// What the reading tools share, end to end: how they are listed, an index host that moved, an index created again,
// an index that is not ready, and no API key in any answer. Each tool's own tests: test/tools/<folder>/<tool>.test.ts,
// on the same fixture (test/tools/fixtures/reading.ts).
import { describe, expect, test } from "vitest";
import { startMcp } from "../helpers/mcp-client.js";
import { createServer } from "node:net";
import { api, createIndex, serverless, startProxy } from "./support.js";
import { refusalOf } from "../helpers/refusal.js";
import { undescribed } from "../helpers/listed-schema.js";
import { host, mcp, svc, useReadingFixture } from "../tools/fixtures/reading.js";

useReadingFixture();

test("the six reading tools are listed, titled and annotated read-only", () => {
  const reading = ["describe_index", "describe_index_stats", "query_vectors", "fetch_vectors", "list_vector_ids", "describe_collection"];
  const listed = mcp.tools.filter((t) => reading.includes(t.name));
  expect(listed.map((t) => t.name)).toEqual(reading);
  for (const t of listed) {
    expect(t.title, t.name).toBeTruthy();
    expect(t.annotations, t.name).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(t.outputSchema, t.name).toBeDefined();
    expect(JSON.stringify(t.inputSchema), t.name).not.toMatch(/anyOf|oneOf|allOf/);
  }
  // Every field, nested ones too, is described for the model unless its name and schema say what it takes.
  for (const t of listed) expect(undescribed(t.inputSchema), t.name).toEqual([]);
  const limits = (tool: string, field: string) => (mcp.tools.find((t) => t.name === tool)!.inputSchema.properties as any)[field];
  expect(limits("query_vectors", "topK")).toMatchObject({ minimum: 1, maximum: 10000 });
  expect(limits("fetch_vectors", "ids")).toMatchObject({ maxItems: 1000 }); // minItems 1 is left out, as minLength 1
  expect(limits("list_vector_ids", "limit")).toMatchObject({ minimum: 1, maximum: 100 });
});

describe("an index host that moved: forgotten and resolved again once", () => {
  /** A loopback port nothing listens on. */
  const deadPort = () =>
    new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });

  test.each(["answers 404", "refuses connections"])("the first host %s; the call lands on the new one", async (how) => {
    const stale =
      how === "answers 404"
        ? await startProxy({ target: `http://${host.docs}`, fault: () => ({ status: 404, body: '{"code":5,"message":"Index docs not found.","details":[]}' }) })
        : undefined;
    const staleHost = stale?.host ?? `127.0.0.1:${await deadPort()}`;
    let describes = 0;
    // The control plane names the stale host the first time it describes "docs", the real one after that.
    const control = await startProxy({
      target: svc.controlUrl,
      rewrite: (body) => (body.includes(`"${host.docs}"`) && describes++ === 0 ? body.replaceAll(host.docs, staleHost) : body),
    });
    const session = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: control.url, VECDB_RETRIES: "0" } });
    try {
      const r = await session.call("fetch_vectors", { index: "docs", namespace: "books", ids: ["b"], includeValues: true });
      expect(r.isError).toBe(false);
      expect((r.structured as any).vectors).toEqual([{ id: "b", dimension: 4, values: [0, 1, 0, 0], metadata: { genre: "drama", year: 2001 } }]);
      expect(control.requests.filter((q) => q.path === "/indexes/docs").length).toBe(2);
      if (stale) expect(stale.requests.map((q) => q.status)).toEqual([404]);
      // The fresh host is cached: the next call asks the control plane nothing.
      await session.call("list_vector_ids", { index: "docs", namespace: "books" });
      expect(control.requests.filter((q) => q.path === "/indexes/docs").length).toBe(2);
    } finally {
      await session.close();
      await control.close();
      await stale?.close();
    }
  });
});

test("an index created again elsewhere with another dimension: a query of the new dimension is not refused by the cached one", async () => {
  await createIndex(svc, { name: "again", dimension: 3, metric: "cosine", spec: serverless });
  expect((await mcp.call("describe_index_stats", { index: "again" })).isError).toBe(false); // caches dimension 3
  expect((await api(svc, "DELETE", "/indexes/again")).status).toBe(202);
  for (let i = 0; i < 400 && (await api(svc, "GET", "/indexes/again")).status !== 404; i++) await new Promise((r) => setTimeout(r, 50));
  await createIndex(svc, { name: "again", dimension: 2, metric: "cosine", spec: serverless });
  const r = await mcp.call("query_vectors", { index: "again", vector: [1, 0], topK: 1 });
  expect(r.isError, r.text).toBe(false);
  expect(r.text).toContain('No matches in namespace "__default__" of index "again".');
});

test("an index that is not ready: refused with the next step", async () => {
  const control = await startProxy({
    target: svc.controlUrl,
    rewrite: (body) => body.replace(/"ready":\s*true/g, '"ready":false').replace(/"state":\s*"Ready"/g, '"state":"Initializing"'),
  });
  const session = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: control.url } });
  try {
    for (const [tool, args] of [
      ["query_vectors", { index: "docs", vector: [1, 0, 0, 0], topK: 1 }],
      ["fetch_vectors", { index: "docs", ids: ["d1"] }],
      ["list_vector_ids", { index: "docs" }],
      ["describe_index_stats", { index: "docs" }],
    ] as const) {
      const r = await session.call(tool, args);
      expect(r.isError, tool).toBe(true);
      expect(refusalOf(r.text), tool).toEqual({
        problem: 'Index "docs" is not ready (state Initializing)',
        untouched: "read",
        next: "wait a little and call again; list_indexes shows when it is Ready.",
      });
    }
  } finally {
    await session.close();
    await control.close();
  }
});

test("the API key appears in no result and no stderr line", () => {
  expect(mcp.transcript()).not.toContain(svc.apiKey);
  expect(mcp.stderr()).not.toContain(svc.apiKey);
});
