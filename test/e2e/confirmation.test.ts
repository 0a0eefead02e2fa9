// Confirmation before destruction (issue 14): a client with elicitation is asked to type the name back before every
// destructive call; accept with the right name → done; decline, cancel or a wrong name → nothing changes and the
// result says so. A client without the capability deletes as before (--allow-destructive is the consent).
// Also: indexes as MCP resources, with --indexes hiding the rest.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { startMcp, type McpSession } from "../helpers/mcp-client.js";
import { api, createIndex, dataUrl, indexStats, serverless } from "./support.js";
import { nothingWas } from "../../src/tool-kit/refusal.js";

let svc: RunningService;
let mcp: McpSession;
let answer: (params: ElicitRequest["params"]) => ElicitResult = () => ({ action: "cancel" });
const asked: ElicitRequest["params"][] = [];

const exists = async (name: string) => (await api(svc, "GET", `/indexes/${name}`)).status === 200;

beforeAll(async () => {
  svc = await startServiceProcess();
  mcp = await startMcp({
    env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl },
    args: ["--allow-destructive"],
    elicit: (params) => (asked.push(params), answer(params)),
  });
  const { host } = await createIndex(svc, { name: "victim", dimension: 2, spec: serverless });
  for (const ns of ["a", "b"]) {
    await api(svc, "POST", `${dataUrl(host)}/vectors/upsert`, { namespace: ns, vectors: [{ id: "1", values: [1, 0], metadata: { k: 1 } }, { id: "2", values: [0, 1], metadata: { k: 2 } }] });
  }
});
afterAll(async () => {
  await mcp?.close();
  await svc?.stop();
});

describe("configure_index asks before it turns deletion protection off", () => {
  const protection = async (name: string) => (await api(svc, "GET", `/indexes/${name}`)).body.deletion_protection;

  test("turning it on asks nothing; turning it off asks, and a refusal leaves it on", async () => {
    await createIndex(svc, { name: "guarded", dimension: 2, spec: serverless });
    asked.length = 0;
    const on = await mcp.call("configure_index", { index: "guarded", deletionProtection: "enabled" });
    expect(on.isError, on.text).toBe(false);
    expect(asked).toHaveLength(0);

    answer = () => ({ action: "decline" });
    const declined = await mcp.call("configure_index", { index: "guarded", deletionProtection: "disabled" });
    expect(declined.isError).toBe(true);
    expect(declined.text).toBe("Not done: the user declined the confirmation. Nothing was changed.\nNext step: do not retry unless the user asks again.");
    expect(asked.map((a) => a.message)).toEqual([
      'Turn off deletion protection of index "guarded" — the index can then be deleted.\n' +
        'What will be lost: the protection that stops index "guarded" and its records from being deleted.\nTo confirm, type "guarded" exactly.',
    ]);
    expect(await protection("guarded")).toBe("enabled");

    answer = (params) => ({ action: "accept", content: { name: /type "([^"]+)"/.exec(params.message)![1] } });
    const off = await mcp.call("configure_index", { index: "guarded", deletionProtection: "disabled" });
    expect(off.isError, off.text).toBe(false);
    expect(await protection("guarded")).toBe("disabled");
    expect((await api(svc, "DELETE", "/indexes/guarded")).status).toBe(202); // the tests below list the indexes
  });
});

describe("delete_index asks first", () => {
  test.each([
    ["declines", { action: "decline" } as ElicitResult, "the user declined the confirmation"],
    ["cancels", { action: "cancel" } as ElicitResult, "the user cancelled the confirmation"],
    ["types the wrong name", { action: "accept", content: { name: "victim2" } } as ElicitResult, 'the name typed back did not match "victim"'],
  ])("the person %s: nothing is deleted and the result says so", async (_what, reply, why) => {
    asked.length = 0;
    answer = () => reply;
    const r = await mcp.call("delete_index", { index: "victim" });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(`Not done: ${why}. ${nothingWas("deleted")}\nNext step: do not retry unless the user asks again.`);
    expect(asked).toHaveLength(1);
    expect(asked[0].message).toBe(
      'Delete index "victim" — this cannot be undone.\nWhat will be lost: index "victim": 4 records in 2 namespaces.\nTo confirm, type "victim" exactly.',
    );
    expect(await exists("victim")).toBe(true);
  });

  test("delete_vectors by filter and update_vectors over several records ask too; declining changes nothing", async () => {
    answer = () => ({ action: "decline" });
    const host = (await api(svc, "GET", "/indexes/victim")).body.host;
    asked.length = 0;
    const del = await mcp.call("delete_vectors", { index: "victim", namespace: "a", filter: { k: { $gte: 2 } } });
    // Counted on a serverless index without describe_index_stats + filter, which the service refuses there.
    expect(asked[0].message).toContain('What will be lost: 1 record in namespace "a" of index "victim".');
    expect(del.text).toBe(`Not done: the user declined the confirmation. ${nothingWas("deleted")}\nNext step: do not retry unless the user asks again.`);
    const upd = await mcp.call("update_vectors", { index: "victim", namespace: "a", filter: { k: { $gte: 1 } }, setMetadata: { k: 0 } });
    expect(upd.text).toBe(`Not done: the user declined the confirmation. ${nothingWas("changed")}\nNext step: do not retry unless the user asks again.`);
    expect((await indexStats(svc, host)).namespaces.a.vectorCount).toBe(2);
    const fetched = await api(svc, "GET", `${dataUrl(host)}/vectors/fetch?ids=1&namespace=a`);
    expect(fetched.body.vectors["1"].metadata).toEqual({ k: 1 });
  });

  test("the person types the name back: deleted", async () => {
    answer = (params) => ({ action: "accept", content: { name: /type "([^"]+)"/.exec(params.message)![1] } });
    const r = await mcp.call("delete_index", { index: "victim" });
    expect(r.isError, r.text).toBe(false);
    expect(await exists("victim")).toBe(false);
  });

  test("a client without elicitation deletes as before", async () => {
    const plain = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl }, args: ["--allow-destructive"] });
    try {
      await createIndex(svc, { name: "plain", dimension: 2, spec: serverless });
      const r = await plain.call("delete_index", { index: "plain" });
      expect(r.isError, r.text).toBe(false);
      expect(await exists("plain")).toBe(false);
    } finally {
      await plain.close();
    }
  });
});

describe("indexes as resources", () => {
  test("resources/list names each index; reading one gives describe_index's facts and its counts, as JSON and as a table", async () => {
    const { host } = await createIndex(svc, { name: "res-a", dimension: 3, spec: serverless });
    await api(svc, "POST", `${dataUrl(host)}/vectors/upsert`, { vectors: [{ id: "x", values: [1, 2, 3] }] });
    await createIndex(svc, { name: "res-b", dimension: 2, spec: serverless });
    const { resources } = await mcp.client.listResources();
    expect(resources.filter((r) => r.uri.startsWith("vecdb://indexes/")).map((r) => [r.uri, r.title, r.description])).toEqual([
      ["vecdb://indexes/res-a", "Index res-a", "serverless index, dimension 3, cosine, Ready"],
      ["vecdb://indexes/res-b", "Index res-b", "serverless index, dimension 2, cosine, Ready"],
    ]);
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(["vecdb://collections", "vecdb://backups"]));
    const { resourceTemplates } = await mcp.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["vecdb://indexes/{name}"]);
    const read = await mcp.client.readResource({ uri: "vecdb://indexes/res-a" });
    const json = JSON.parse((read.contents[0] as { text: string }).text);
    const tool = await mcp.call("describe_index", { index: "res-a" });
    expect(json.index).toEqual(tool.structured?.index);
    expect(json.stats).toMatchObject({ index: "res-a" });
    expect((read.contents[1] as { text: string }).text).toContain(tool.text);
    const collections = await mcp.client.readResource({ uri: "vecdb://collections" });
    expect(JSON.parse((collections.contents[0] as { text: string }).text)).toHaveProperty("collections");
  });

  test("--indexes: the others are absent from the list and refused when read", async () => {
    const scoped = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl }, args: ["--indexes", "res-b"] });
    try {
      const { resources } = await scoped.client.listResources();
      expect(resources.filter((r) => r.uri.startsWith("vecdb://indexes/")).map((r) => r.uri)).toEqual(["vecdb://indexes/res-b"]);
      await expect(scoped.client.readResource({ uri: "vecdb://indexes/res-a" })).rejects.toThrow(/Index "res-a" is not available/);
    } finally {
      await scoped.close();
    }
  });
});
