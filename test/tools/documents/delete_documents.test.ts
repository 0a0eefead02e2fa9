// delete_documents end to end (--allow-destructive): by ids (naming those not found), by filter and all after the
// person confirms (elicitation: the question shows how many documents go; declined, nothing is deleted); misuse
// refused. Every outcome is read back from the service.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { documentsApi, mcp, svc, useDocumentsFixture } from "../fixtures/documents.js";
import { startMcp, type McpSession } from "../../helpers/mcp-client.js";
import { refusalOf } from "../../helpers/refusal.js";

useDocumentsFixture();

const docs = ["a", "b", "c", "d", "e"].map((id, i) => ({ id, text: `note ${id}`, kind: i < 2 ? "draft" : "final" }));
const ids = async (namespace: string) => (await documentsApi("scratch", namespace, "list", {})).body.documents.map((d: { _id: string }) => d._id);

describe("delete_documents", () => {
  let asking: McpSession;
  let answer: (params: ElicitRequest["params"]) => ElicitResult = () => ({ action: "decline" });
  const asked: string[] = [];

  beforeAll(async () => {
    const made = await mcp.call("create_documents_index", { name: "scratch", textFields: ["text"] });
    if (made.isError) throw new Error(made.text);
    for (const ns of ["by-ids", "by-filter", "all"]) await mcp.call("upsert_documents", { index: "scratch", namespace: ns, documents: docs });
    asking = await startMcp({
      env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl },
      args: ["--allow-destructive"],
      elicit: (params) => (asked.push(params.message), answer(params)),
    });
  });
  afterAll(() => asking?.close());

  test("by ids: those found go, the others are named", async () => {
    const r = await mcp.call("delete_documents", { index: "scratch", namespace: "by-ids", ids: ["a", "b", "zz"] });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toEqual({ index: "scratch", namespace: "by-ids", by: "ids", found: 2, missing: ["zz"] });
    expect(r.text).toBe('Deleted 2 of the 3 ids given (not found: zz) from namespace "by-ids" of index "scratch".');
    expect(await ids("by-ids")).toEqual(["c", "d", "e"]);
  });

  test("by filter: the person is asked, seeing how many go; declined, nothing is deleted; confirmed, those go", async () => {
    answer = () => ({ action: "decline" });
    const declined = await asking.call("delete_documents", { index: "scratch", namespace: "by-filter", filter: { kind: "draft" } });
    expect(declined.isError).toBe(true);
    expect(refusalOf(declined.text)).toEqual({ problem: "Not done: the user declined the confirmation", untouched: "deleted", next: "do not retry unless the user asks again." });
    expect(asked.at(-1)).toBe(
      'Delete every document matching the filter in namespace "by-filter" of index "scratch" — this cannot be undone.\n' +
        'What will be lost: 2 documents in namespace "by-filter" of index "scratch".\nTo confirm, type "scratch" exactly.',
    );
    expect(await ids("by-filter")).toEqual(["a", "b", "c", "d", "e"]);
    answer = () => ({ action: "accept", content: { name: "scratch" } });
    const done = await asking.call("delete_documents", { index: "scratch", namespace: "by-filter", filter: { kind: "draft" } });
    expect(done.isError, done.text).toBe(false);
    expect(done.structured).toEqual({ index: "scratch", namespace: "by-filter", by: "filter", matched: 2 });
    expect(done.text).toBe('Deleted 2 documents matching the filter from namespace "by-filter" of index "scratch".');
    expect(await ids("by-filter")).toEqual(["c", "d", "e"]);
  });

  test("all: every document of that namespace only", async () => {
    answer = () => ({ action: "accept", content: { name: "scratch" } });
    const r = await asking.call("delete_documents", { index: "scratch", namespace: "all", deleteAll: true });
    expect(r.isError, r.text).toBe(false);
    expect(asked.at(-1)).toContain('What will be lost: 5 documents in namespace "all" of index "scratch".');
    expect(await ids("all")).toEqual([]);
    expect(await ids("by-ids")).toEqual(["c", "d", "e"]);
  });

  test("misuse is refused and nothing is deleted", async () => {
    const refused = async (args: Record<string, unknown>) => refusalOf((await mcp.call("delete_documents", { index: "scratch", namespace: "by-ids", ...args })).text);
    expect(await refused({})).toEqual({ problem: "Say what to delete: give ids, filter or deleteAll: true (one of them)", untouched: "deleted" });
    expect((await refused({ ids: ["c"], deleteAll: true })).problem).toBe("Give one of ids, filter or deleteAll; this call gave ids and deleteAll");
    expect((await refused({ filter: {} })).problem).toBe("The filter is empty, which would match every document. To delete them all, give deleteAll: true instead");
    expect(await ids("by-ids")).toEqual(["c", "d", "e"]);
  });

  test("without --allow-destructive the tool is not offered", async () => {
    const plain = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl } });
    try {
      expect(plain.tools.map((t) => t.name)).not.toContain("delete_documents");
      expect(plain.tools.map((t) => t.name)).toContain("search_documents");
    } finally {
      await plain.close();
    }
  });
});
