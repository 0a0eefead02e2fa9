// delete_collection end to end: the built server over stdio (with --allow-destructive) against the local service
// (test/tools/fixtures/admin.ts), every outcome checked on the service itself.
import { describe, expect, test } from "vitest";
import { svc, mcp, indexNames, collectionNames, upsert, waitFor, useAdminFixture } from "../fixtures/admin.js";
import { api, createIndex, pod } from "../../e2e/support.js";

useAdminFixture();

describe("delete_collection", () => {
  test("removes the collection and says what it held; its index stays", async () => {
    const { host } = await createIndex(svc, { name: "coll-src", dimension: 2, spec: pod });
    await upsert(host, "", [{ id: "1", values: [1, 2] }]);
    expect((await api(svc, "POST", "/collections", { name: "old-snap", source: "coll-src" })).status).toBe(201);
    await waitFor(async () => (await api(svc, "GET", "/collections/old-snap")).body.status === "Ready", "collection ready");
    const r = await mcp.call("delete_collection", { collection: "old-snap" });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({ deleted: { name: "old-snap", environment: "us-east1-gcp", dimension: 2, vectorCount: 1 } });
    expect(r.text.split("\n")[0]).toBe('Collection "old-snap" deleted, with every record in it:');
    expect(await collectionNames()).not.toContain("old-snap");
    expect(await indexNames()).toContain("coll-src");
  });
});
