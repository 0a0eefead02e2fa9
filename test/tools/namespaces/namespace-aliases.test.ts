// The namespace alias tools end to end under API version 2026-07: the built server over stdio against the local
// service. An alias is made, listed, described; reads through it follow it when it is repointed (after the person
// confirms; a refusal changes nothing); writes need the real name; deleting it asks and leaves the namespace; a server
// speaking 2026-04 says plainly the tools need 2026-07.
import { describe, expect, test } from "vitest";
import { asked, API_KEY, confirmation, mcp, svc, typeTheName, useApi2026_07, v7 } from "../fixtures/api-2026-07.js";
import { startMcp } from "../../helpers/mcp-client.js";
import { nothingWas } from "../../../src/tool-kit/refusal.js";

useApi2026_07();

const idsOf = (r: { structured?: Record<string, unknown> }) => ((r.structured?.matches ?? []) as { id: string }[]).map((m) => m.id).sort();

describe("namespace aliases: create_namespace_alias, list_namespace_aliases, describe_namespace_alias, repoint_namespace_alias, delete_namespace_alias", () => {
  test("reads through an alias follow it when it is repointed; declining the repoint changes nothing", async () => {
    const made = await mcp.call("create_index", { name: "notes", dimension: 2 });
    expect(made.isError, made.text).toBe(false);
    for (const [namespace, id] of [["v1", "old"], ["v2", "new"]] as const) {
      const up = await mcp.call("upsert_vectors", { index: "notes", namespace, vectors: [{ id, values: [1, 0] }] });
      expect(up.isError, up.text).toBe(false);
    }

    const created = await mcp.call("create_namespace_alias", { index: "notes", alias: "live", target: "v1" });
    expect(created.isError, created.text).toBe(false);
    expect(created.text).toBe('Alias created in index "notes":\n\n| alias | target |\n| --- | --- |\n| live | v1 |');
    expect((await mcp.call("query_vectors", { index: "notes", namespace: "live", vector: [1, 0], topK: 5 }).then(idsOf))).toEqual(["old"]);

    const listed = await mcp.call("list_namespace_aliases", { index: "notes" });
    expect(listed.structured).toMatchObject({ index: "notes", aliases: [{ alias: "live", target: "v1" }], total: 1 });
    const described = await mcp.call("describe_namespace_alias", { index: "notes", alias: "live" });
    expect(described.structured?.alias).toMatchObject({ alias: "live", target: "v1", createdAt: expect.any(String), updatedAt: expect.any(String) });

    asked.length = 0;
    confirmation.answer = () => ({ action: "decline" });
    const declined = await mcp.call("repoint_namespace_alias", { index: "notes", alias: "live", target: "v2" });
    expect(declined.text).toBe(`Not done: the user declined the confirmation. ${nothingWas("changed")}\nNext step: do not retry unless the user asks again.`);
    expect(asked.map((a) => a.message)).toEqual([
      'Repoint alias "live" of index "notes" from namespace "v1" to "v2" — every read through it will see namespace "v2" instead.\n' +
        'What will be lost: reads through "live" seeing namespace "v1".\nTo confirm, type "live" exactly.',
    ]);
    expect((await mcp.call("query_vectors", { index: "notes", namespace: "live", vector: [1, 0], topK: 5 }).then(idsOf))).toEqual(["old"]);

    confirmation.answer = typeTheName;
    const repointed = await mcp.call("repoint_namespace_alias", { index: "notes", alias: "live", target: "v2" });
    expect(repointed.isError, repointed.text).toBe(false);
    expect(repointed.text).toBe(
      'Alias "live" of index "notes" repointed: reads through it now see namespace "v2".\n\n| alias | before | after |\n| --- | --- | --- |\n| live | v1 | v2 |',
    );
    expect((await mcp.call("query_vectors", { index: "notes", namespace: "live", vector: [1, 0], topK: 5 }).then(idsOf))).toEqual(["new"]);
    const fetched = await mcp.call("fetch_vectors", { index: "notes", namespace: "live", ids: ["new", "old"] });
    expect(fetched.structured).toMatchObject({ vectors: [{ id: "new" }], missing: ["old"] });

    const again = await mcp.call("repoint_namespace_alias", { index: "notes", alias: "live", target: "v2" });
    expect(again.text).toMatch(/^Alias "live" of index "notes" already points at "v2"; nothing was changed\./);

    const write = await mcp.call("upsert_vectors", { index: "notes", namespace: "live", vectors: [{ id: "x", values: [0, 1] }] });
    expect(write.isError).toBe(true);
  });

  test("refusals name the field and the rule; a missing alias names the tool that lists them", async () => {
    const bad = await mcp.call("create_namespace_alias", { index: "notes", alias: "a/b", target: "v1" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("alias names are printable ASCII without spaces or any of / ? # % & = \\ ; +");
    const missing = await mcp.call("describe_namespace_alias", { index: "notes", alias: "nope" });
    expect(missing.text).toBe(`Namespace alias "nope" not found in index "notes". ${nothingWas("read")}\nNext step: Call list_namespace_aliases to see the namespace aliases there are, then call again with one of them.`);
  });

  test("delete asks, and leaves the namespace and its records", async () => {
    asked.length = 0;
    confirmation.answer = typeTheName;
    const deleted = await mcp.call("delete_namespace_alias", { index: "notes", alias: "live" });
    expect(deleted.isError, deleted.text).toBe(false);
    expect(deleted.text).toBe('Alias "live" deleted from index "notes"; namespace "v2" is unchanged.\n\n| alias | target |\n| --- | --- |\n| live | v2 |');
    expect(asked[0].message).toBe(
      'Delete alias "live" of index "notes" — reads through it will fail; the namespace and its records stay.\n' +
        'What will be lost: the alias "live" of namespace "v2".\nTo confirm, type "live" exactly.',
    );
    const host = (await v7("GET", "/indexes/notes")).body.host;
    expect((await v7("GET", `http://${host}/namespace-aliases`)).body).toMatchObject({ namespace_aliases: [], total_count: 0 });
    expect(Number((await v7("GET", `http://${host}/namespaces/v2`)).body.record_count)).toBe(1);
  });

  test("a server speaking 2026-04 says the tools need 2026-07", async () => {
    const old = await startMcp({ env: { PINECONE_API_KEY: API_KEY, PINECONE_CONTROLLER_HOST: svc.controlUrl, PINECONE_API_VERSION: "2026-04" } });
    try {
      const r = await old.call("list_namespace_aliases", { index: "notes" });
      expect(r.isError).toBe(true);
      expect(r.text).toBe(
        `list_namespace_aliases needs API version 2026-07 or later; this server speaks 2026-04 (PINECONE_API_VERSION). ${nothingWas("read")}\n` +
          "Next step: tell the user; it needs the server restarted with PINECONE_API_VERSION=2026-07 (the service must support it).",
      );
    } finally {
      await old.close();
    }
  });
});
