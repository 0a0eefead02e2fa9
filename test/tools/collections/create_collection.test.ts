// create_collection and list_collections end to end: the built server over stdio against the local service
// (test/tools/fixtures/project.ts), checked on the service itself.
import { describe, expect, test } from "vitest";
import { collectionNames, mcp, useProjectFixture, useThreeIndexes } from "../fixtures/project.js";
import { nothingWas } from "../../../src/tool-kit/refusal.js";
import { listingStep } from "../../../src/tool-kit/missing-resource.js";

useProjectFixture();

describe("an empty project", () => {
  test("list_collections says so in words", async () => {
    const r = await mcp.call("list_collections");
    expect(r.structured).toEqual({ collections: [] });
    expect(r.text).toBe("There are no collections in this project yet. create_collection makes one from a pod-based index.");
  });
});

describe("create_collection and list_collections, with indexes", () => {
  useThreeIndexes();

  test("create_collection from a pod-based index: the new record, Initializing", async () => {
    await mcp.call("upsert_vectors", { index: "pods", vectors: [{ id: "p", values: [1, 2, 3, 4] }] });
    const r = await mcp.call("create_collection", { name: "pods-snap", index: "pods" });
    expect(r.isError).toBe(false);
    expect(r.structured).toMatchObject({ collection: { name: "pods-snap", status: "Initializing", environment: "us-east1-gcp", source: "pods" } });
    expect(r.text).toBe(
      [
        "Collection created:",
        "",
        "| name | status | environment | source | dimension | records | size |",
        "| --- | --- | --- | --- | --- | --- | --- |",
        "| pods-snap | Initializing | us-east1-gcp | pods | 4 |  |  |",
        "",
        "It is Initializing now and becomes Ready when the copy is complete; list_collections shows its status.",
      ].join("\n"),
    );
    expect(await collectionNames()).toEqual(["pods-snap"]);
  });

  test("list_collections: the exact table once the collection is Ready", async () => {
    let r = await mcp.call("list_collections");
    for (let i = 0; i < 400 && (r.structured as any).collections[0].status !== "Ready"; i++) {
      await new Promise((res) => setTimeout(res, 50));
      r = await mcp.call("list_collections");
    }
    const c = (r.structured as any).collections[0];
    expect(c).toMatchObject({ name: "pods-snap", status: "Ready", environment: "us-east1-gcp", dimension: 4, vectorCount: 1 });
    expect(typeof c.size).toBe("number");
    const size = c.size < 1000 ? `${c.size} B` : `${Math.round(c.size / 100) / 10} kB`;
    expect(r.text).toBe(
      ["1 collection:", "", "| name | status | environment | dimension | records | size |", "| --- | --- | --- | --- | --- | --- |", `| pods-snap | Ready | us-east1-gcp | 4 | 1 | ${size} |`].join("\n"),
    );
  });

  test("create_collection with a taken name: 409 and the next step", async () => {
    const r = await mcp.call("create_collection", { name: "pods-snap", index: "pods" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("create_collection failed — the service answered HTTP 409 ALREADY_EXISTS");
    expect(r.text).toContain("Next step: The name is taken.");
  });

  test("create_collection from an unknown index: 404 and list_indexes", async () => {
    const r = await mcp.call("create_collection", { name: "x", index: "missing" });
    expect(r.text).toBe(
      "create_collection failed — the service answered HTTP 404 NOT_FOUND: \"Index missing not found.\"\n" +
        `Next step: ${listingStep("index")}`,
    );
  });

  test("create_collection from a serverless index lists the pod-based ones and creates nothing", async () => {
    const before = await collectionNames();
    const r = await mcp.call("create_collection", { name: "docs-snap", index: "docs" });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      [
        'Index "docs" is serverless, and collections are made only from pod-based indexes.',
        "The pod-based indexes there are:",
        "",
        "| name | environment | pod type | dimension |",
        "| --- | --- | --- | --- |",
        "| pods | us-east1-gcp | p1.x1 | 4 |",
        nothingWas("created"),
      ].join("\n"),
    );
    expect(await collectionNames()).toEqual(before);
  });

  const badNames: [string, string][] = [
    ["", 'Collection name "" is empty. Rule: 1–45 characters. A valid name would be "my-collection".'],
    ["a".repeat(46), `Collection name "${"a".repeat(46)}" is 46 characters long. Rule: 1–45 characters. A valid name would be "${"a".repeat(45)}".`],
    ["My_Snap", 'Collection name "My_Snap" contains "M", "_" and "S". Rule: only lower-case letters a–z, digits 0–9 and "-". A valid name would be "my-snap".'],
    ["snap.v2", 'Collection name "snap.v2" contains ".". Rule: only lower-case letters a–z, digits 0–9 and "-". A valid name would be "snap-v2".'],
    ["-snap", 'Collection name "-snap" starts with "-". Rule: the first and the last character must be a letter or a digit. A valid name would be "snap".'],
    ["snap-", 'Collection name "snap-" ends with "-". Rule: the first and the last character must be a letter or a digit. A valid name would be "snap".'],
  ];
  test.each(badNames)("create_collection refuses the name %j with the rule and a valid name", async (name, message) => {
    const before = await collectionNames();
    const r = await mcp.call("create_collection", { name, index: "pods" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(message);
    expect(await collectionNames()).toEqual(before);
  });
});
