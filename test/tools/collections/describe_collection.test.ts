// describe_collection end to end: the built server over stdio against the local service, with the reading tools' fixture
// (test/tools/fixtures/reading.ts). Texts are checked exactly.
import { describe, expect, test } from "vitest";
import { svc, mcp, table, useReadingFixture } from "../fixtures/reading.js";
import { api } from "../../e2e/support.js";
import { listingStep } from "../../../src/tool-kit/missing-resource.js";

useReadingFixture();

describe("describe_collection", () => {
  test("a collection's record, once Ready", async () => {
    const res = await api(svc, "POST", "/collections", { name: "pods-snap", source: "pods" });
    expect(res.status).toBe(201);
    let r = await mcp.call("describe_collection", { collection: "pods-snap" });
    for (let i = 0; i < 400 && (r.structured as any).collection.status !== "Ready"; i++) {
      await new Promise((res) => setTimeout(res, 50));
      r = await mcp.call("describe_collection", { collection: "pods-snap" });
    }
    const c = (r.structured as any).collection;
    expect(c).toMatchObject({ name: "pods-snap", status: "Ready", environment: "us-east1-gcp", dimension: 2, vectorCount: 2 });
    const size = c.size < 1000 ? `${c.size} B` : `${Math.round(c.size / 100) / 10} kB`;
    expect(r.text).toBe(
      table(
        'Collection "pods-snap":',
        "",
        "| field | value |",
        "| --- | --- |",
        "| name | pods-snap |",
        "| status | Ready |",
        "| environment | us-east1-gcp |",
        "| dimension | 2 |",
        "| records | 2 |",
        `| size | ${size} (${c.size} bytes) |`,
      ),
    );
  });

  test("an unknown collection: 404 and list_collections", async () => {
    const r = await mcp.call("describe_collection", { collection: "nope" });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      "describe_collection failed — the service answered HTTP 404 NOT_FOUND: \"Collection nope not found.\"\n" +
        `Next step: ${listingStep("collection")}`,
    );
  });
});
