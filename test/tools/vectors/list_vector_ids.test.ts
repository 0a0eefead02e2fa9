// list_vector_ids end to end: the built server over stdio against the local service, with the reading tools' fixture
// (test/tools/fixtures/reading.ts). Texts are checked exactly.
import { describe, expect, test } from "vitest";
import { svc, mcp, host, table, upsert, useReadingFixture } from "../fixtures/reading.js";
import { api } from "../../e2e/support.js";
import { nothingWas } from "../../../src/tool-kit/refusal.js";

useReadingFixture();

describe("list_vector_ids", () => {
  test("pages through every id with the paginationToken it returns", async () => {
    const first = await mcp.call("list_vector_ids", { index: "docs", namespace: "books", limit: 2 });
    const token = (first.structured as any).paginationToken as string;
    expect(typeof token).toBe("string");
    const more = `More ids follow: call list_vector_ids again with paginationToken ${JSON.stringify(token)} (and the same index, namespace and prefix) for the next page.`;
    expect(first.structured).toEqual({ index: "docs", namespace: "books", ids: ["a", "b"], paginationToken: token, note: more });
    expect(first.text).toBe(
      table(
        '2 ids in namespace "books" of index "docs":',
        "",
        "| id |",
        "| --- |",
        "| a |",
        "| b |",
        "",
        `More ids follow: call list_vector_ids again with paginationToken ${JSON.stringify(token)} (and the same index, namespace and prefix) for the next page.`,
      ),
    );
    const second = await mcp.call("list_vector_ids", { index: "docs", namespace: "books", limit: 2, paginationToken: token });
    expect(second.structured).toEqual({ index: "docs", namespace: "books", ids: ["c"], note: "That was the last page." });
    expect(second.text).toBe(table('1 id in namespace "books" of index "docs":', "", "| id |", "| --- |", "| c |", "", "That was the last page."));
  });

  test("a prefix, the default namespace, and an empty result", async () => {
    await upsert("empty", "chunks", [
      { id: "doc1#1", values: [1, 0, 0] },
      { id: "doc1#2", values: [1, 0, 0] },
      { id: "doc2#1", values: [1, 0, 0] },
    ]);
    const r = await mcp.call("list_vector_ids", { index: "empty", namespace: "chunks", prefix: "doc1#" });
    expect(r.text).toBe(table('2 ids in namespace "chunks" of index "empty" starting with "doc1#":', "", "| id |", "| --- |", "| doc1#1 |", "| doc1#2 |", "", "That is all of them."));
    const d = await mcp.call("list_vector_ids", { index: "docs" });
    expect(d.structured).toEqual({ index: "docs", namespace: "", ids: ["d1"], note: "That is all of them." });
    const none = await mcp.call("list_vector_ids", { index: "docs", namespace: "books", prefix: "q" });
    expect(none.text).toBe('No ids in namespace "books" of index "docs" starting with "q".\n\ndescribe_index_stats shows which namespaces hold records.');
  });

  test("a pod-based index: refused as the service refuses it, with what to use instead", async () => {
    const r = await mcp.call("list_vector_ids", { index: "pods" });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      `Index "pods" is pod-based, and the service lists record ids only in serverless indexes. ${nothingWas("read")}\n` +
        "Next step: fetch_vectors reads records whose ids you know; query_vectors finds records by vector or metadata filter; describe_index_stats counts them per namespace.",
    );
    const onService = await api(svc, "GET", `http://${host.pods}/vectors/list`);
    expect(onService).toEqual({
      status: 400,
      body: { code: 3, message: "List operation is not supported for pod-based indexes. Use a serverless index to list record ids.", details: [] },
    });
  });

  test.each([
    ["a limit of 0", { index: "docs", limit: 0 }, "MCP error -32602: Input validation error: Invalid arguments for tool list_vector_ids: limit is 0: must be a whole number from 1 to 100. at limit"],
    ["a limit of 101", { index: "docs", limit: 101 }, "MCP error -32602: Input validation error: Invalid arguments for tool list_vector_ids: limit is 101: must be a whole number from 1 to 100. at limit"],
    [
      "a token the service did not issue",
      { index: "docs", paginationToken: "not a token!" },
      "list_vector_ids failed — the service answered HTTP 400: \"paginationToken is not a token this service issued\"\nNext step: Correct the request as the message says and call again.",
    ],
  ])("%s: the exact text", async (_name, args, text) => {
    const r = await mcp.call("list_vector_ids", args);
    expect(r.isError).toBe(true);
    expect(r.text).toBe(text);
  });
});
