// What API version 2026-07 changes on the data plane: namespaces described with record_count and size_bytes as
// decimal strings; ids and namespaces ASCII only; all-zero dense vectors refused. 2026-04 answers as before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, err, makeIndex, openEnv, type Env } from "../setup.js";
import { DeclaredNamespaces } from "../../../src/local/storage/declared-namespaces.js";
import { handleDataPlane } from "../../../src/local/data/handlers.js";
import type { DataPlaneIndex } from "../../../src/local/data/types.js";

let env: Env;
let extras: { namespaces: DeclaredNamespaces };
const index: DataPlaneIndex = makeIndex({ name: "idx", space: "i:v", dimension: 2, kind: "serverless" });

async function call(version: "2026-04" | "2026-07", method: string, path: string, body?: unknown, query = new URLSearchParams()) {
  const res = await handleDataPlane({ method, pathname: path, query, body: Buffer.from(body === undefined ? "" : JSON.stringify(body)), apiVersion: version }, index, env.store, extras);
  return { status: res.status, body: JSON.parse(JSON.stringify(res.body ?? null)) };
}

beforeAll(async () => {
  env = openEnv();
  extras = { namespaces: new DeclaredNamespaces(env.root) };
  await client(env.store, index).post("/vectors/upsert", { namespace: "ns", vectors: [{ id: "a", values: [1, 2] }, { id: "b", values: [3, 4] }] });
});
afterAll(() => env.close());

describe("namespaces under 2026-07", () => {
  it("describe record_count and size_bytes as decimal strings", async () => {
    const described = await call("2026-07", "GET", "/namespaces/ns");
    expect(described.body).toEqual({ name: "ns", record_count: "2", size_bytes: expect.stringMatching(/^[1-9]\d*$/) });
    const listed = await call("2026-07", "GET", "/namespaces");
    expect(listed.body.namespaces).toEqual([described.body]);
    expect((await call("2026-04", "GET", "/namespaces/ns")).body).toEqual({ name: "ns", record_count: 2 });
  });

  it("a malformed pagination token is 400", async () => {
    expect(await call("2026-07", "GET", "/namespaces", undefined, new URLSearchParams({ paginationToken: "%%not-a-token" }))).toEqual({
      status: 400,
      body: err(3, "paginationToken is malformed: pass the pagination.next of the previous page as it came"),
    });
    const first = await call("2026-07", "GET", "/namespaces", undefined, new URLSearchParams({ limit: "1" }));
    expect(first.status).toBe(200);
  });

  it("a namespace that does not exist is 404", async () => {
    expect(await call("2026-07", "GET", "/namespaces/none")).toEqual({ status: 404, body: err(5, "Namespace 'none' not found") });
  });
});

describe("stricter input under 2026-07 (400, nothing written)", () => {
  it.each([
    ["a non-ASCII id", { namespace: "ns", vectors: [{ id: "é", values: [1, 1] }] }, "Vector at position 0 (id 'é'): with API version 2026-07 an id must be ASCII without NUL"],
    ["a non-ASCII namespace", { namespace: "naïve", vectors: [{ id: "c", values: [1, 1] }] }, "Namespace 'naïve' must be ASCII without NUL with API version 2026-07"],
    [
      "an all-zero vector",
      { namespace: "ns", vectors: [{ id: "c", values: [0, 1e-9] }] },
      "Vector at position 0 (id 'c'): values contain only zeros (every value is smaller than 1e-8 in magnitude); a dense vector needs at least one value of magnitude 1e-8 or more",
    ],
  ])("refuses %s", async (_what, body, message) => {
    expect(await call("2026-07", "POST", "/vectors/upsert", body)).toEqual({ status: 400, body: err(3, message) });
    expect(env.store.spaceStats("i:v").totalVectorCount).toBe(2);
  });

  it("fetch_by_metadata needs a filter", async () => {
    expect(await call("2026-07", "POST", "/vectors/fetch_by_metadata", { namespace: "ns" })).toEqual({
      status: 400,
      body: err(3, "filter is required with API version 2026-07: the metadata filter the records must match"),
    });
    expect((await call("2026-04", "POST", "/vectors/fetch_by_metadata", { namespace: "ns" })).status).toBe(200);
  });

  it("2026-04 still takes them", async () => {
    expect((await call("2026-04", "POST", "/vectors/upsert", { namespace: "ns", vectors: [{ id: "é", values: [0, 0] }] })).status).toBe(200);
    expect(env.store.spaceStats("i:v").totalVectorCount).toBe(3);
  });
});
