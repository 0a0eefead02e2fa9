// The inference tools end to end: the built server over stdio against the local service with local-bm25 and a dense
// model of a small real OpenAI-compatible server (test/tools/fixtures/text.ts), with the exact text a model receives.
import { describe, expect, test } from "vitest";
import { mcp, useTextFixture } from "../fixtures/text.js";
import { TEST_MODEL } from "../../helpers/embeddings-server.js";
import { nothingWas } from "../../../src/tool-kit/refusal.js";

useTextFixture();

describe("embed_texts and list_models", () => {
  test("embed_texts returns local-bm25's sparse vectors and list_models lists what exists", async () => {
    const e = await mcp.call("embed_texts", { model: "local-bm25", inputs: ["tide tide harbor"], inputType: "passage" });
    const emb = (e.structured as { embeddings: { sparseValues: { indices: number[]; values: number[] }; sparseTokens: string[] }[] }).embeddings[0];
    expect(emb.sparseValues.values.sort()).toEqual([1, 2]);
    expect(e.text).toBe(
      "| model | vector type | count | non-zeros | tokens |\n| --- | --- | --- | --- | --- |\n| local-bm25 | sparse | 1 | 2–2 non-zeros | 3 |\n\n" +
        "The vectors are in structuredContent.embeddings, one per input in order.",
    );
    const m = await mcp.call("list_models", { type: "embed" });
    expect((m.structured as { models: { model: string }[] }).models.map((x) => x.model)).toEqual(["local-bm25", TEST_MODEL, "chat-model-not-embeddings"]);
  });
});

describe("rerank_documents: bad inputs, with the exact text a model receives", () => {
  test("rerank_documents: a document without the rank field", async () => {
    const r = await mcp.call("rerank_documents", { model: "local-bm25-rerank", query: "q", documents: [{ id: "x", body: "b" }] });
    expect(r.text).toBe(
      `documents[0] has no text field "text" (rankFields is ["text"]). ${nothingWas("read")}\n` +
        "Next step: give each document that field, or set rankFields to the field that holds its text.",
    );
  });
});
