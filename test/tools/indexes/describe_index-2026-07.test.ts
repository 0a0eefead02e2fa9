// Indexes described the 2026-07 way (deployment + schema) as the index tools read them: what an index holds, its
// fields, dimension and metric where a vector field has them, read capacity; create_index sends the schema form and
// configure_index what 2026-07 allows, refusing plainly what it does not.
import { describe, expect, test } from "vitest";
import { mcp, useApi2026_07, v7 } from "../fixtures/api-2026-07.js";
import { nothingWas } from "../../../src/tool-kit/refusal.js";

useApi2026_07();

const table = (...lines: string[]) => lines.join("\n");

describe("describe_index and list_indexes under API version 2026-07", () => {
  test("a documents index: its full-text and vector fields, dimension and metric from its dense field, read capacity", async () => {
    const made = await v7("POST", "/indexes", {
      name: "notes",
      schema: {
        fields: {
          title: { type: "string", full_text_search: { language: "en", stemming: true, stop_words: true } },
          body: { type: "string", full_text_search: {} },
          embedding: { type: "dense_vector", dimension: 4, metric: "cosine" },
        },
      },
    });
    expect(made.status).toBe(201);
    const r = await mcp.call("describe_index", { index: "notes" });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured?.index).toEqual({
      name: "notes",
      kind: "serverless",
      holds: "documents",
      dimension: 4,
      metric: "cosine",
      vectorType: "dense",
      host: made.body.host,
      state: "Ready",
      ready: true,
      deletionProtection: "disabled",
      fields: [
        { name: "title", type: "string", fullTextSearch: { language: "en", stemming: true, stopWords: true } },
        { name: "body", type: "string", fullTextSearch: { language: "en", stemming: false, stopWords: false } },
        { name: "embedding", type: "dense_vector", dimension: 4, metric: "cosine" },
      ],
      readCapacity: { mode: "OnDemand", state: "Ready" },
      spec: { serverless: { cloud: "aws", region: "us-east-1" } },
    });
    expect(r.text).toContain(
      table(
        "| holds | documents |",
        "| field title | string full-text en stemming stop words |",
        "| field body | string full-text en |",
        "| field embedding | dense_vector 4 cosine |",
        "| read capacity | OnDemand (Ready) |",
      ),
    );
    const listed = await mcp.call("list_indexes", {});
    expect(listed.text).toContain(`| notes | serverless, documents | 4 | cosine | Ready | ${made.body.host} | aws us-east-1 |`);
  });

  test("an index made for a model holds text: its semantic_text field is its embedding", async () => {
    const m = await mcp.call("create_index_for_model", { name: "bm", embed: { model: "local-bm25", fieldMap: { text: "body" } } });
    expect(m.isError, m.text).toBe(false);
    expect(m.structured).toMatchObject({
      model: "local-bm25",
      textField: "body",
      index: { name: "bm", holds: "text", metric: "dotproduct", vectorType: "sparse", fields: [{ name: "body", type: "semantic_text", model: "local-bm25", metric: "dotproduct" }] },
    });
  });

  test("create_index sends the schema form and reads the answer back as a vectors index; pod indexes are refused", async () => {
    const c = await mcp.call("create_index", { name: "vec", dimension: 3, metric: "euclidean", deletionProtection: "enabled" });
    expect(c.isError, c.text).toBe(false);
    expect(c.structured?.index).toMatchObject({ name: "vec", holds: "vectors", dimension: 3, metric: "euclidean", vectorType: "dense", deletionProtection: "enabled" });
    expect((await v7("GET", "/indexes/vec")).body.schema.fields._values).toEqual({ type: "dense_vector", dimension: 3, metric: "euclidean" });
    const again = await mcp.call("create_index", { name: "vec", dimension: 3, metric: "euclidean" });
    expect(again.structured).toMatchObject({ created: false });

    const taken = await mcp.call("create_index", { name: "notes", dimension: 4 });
    expect(taken.text).toBe(
      'Index "notes" already exists with different settings:\n- holds: the index holds documents, create_index makes indexes of vectors\nNothing was changed.\n' +
        "Next step: use the existing index as it is (list_indexes shows it), or call create_index with another name.",
    );

    const pod = await mcp.call("create_index", { name: "pods", dimension: 3, pod: { environment: "us-east1-gcp", podType: "p1.x1" } });
    expect(pod.text).toBe(
      `Pod-based indexes cannot be created under API version 2026-07 (PINECONE_API_VERSION): from 2026-07 the service makes serverless indexes only. ${nothingWas("created")}\n` +
        "Next step: create a serverless index, or restart the server with PINECONE_API_VERSION=2026-04 to make a pod-based one.",
    );
  });

  test("configure_index: read capacity and tags in the 2026-07 body; the field map cannot change", async () => {
    const rc = await mcp.call("configure_index", { index: "vec", readCapacity: { mode: "Dedicated", nodeType: "b1", replicas: 2, shards: 1 }, tags: { team: "search" } });
    expect(rc.isError, rc.text).toBe(false);
    expect(rc.structured?.changes).toEqual([
      { setting: "tags.team", before: "(none)", after: "search" },
      { setting: "readCapacity", before: '{"mode":"OnDemand"}', after: expect.stringContaining('"mode":"Dedicated"') },
    ]);
    const fieldMap = await mcp.call("configure_index", { index: "bm", embed: { fieldMap: { text: "title" } } });
    expect(fieldMap.text).toBe(
      `embed.fieldMap cannot be changed under API version 2026-07 (PINECONE_API_VERSION): from 2026-07 only the embedding's readParameters and writeParameters can. ${nothingWas("changed")}`,
    );
  });
});
