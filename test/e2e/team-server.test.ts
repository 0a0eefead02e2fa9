// A team's HTTP server never reaches the user's personal data. With no key and no --data-dir, an --http server uses
// a data directory of its own (vecdb-mcp-http beside vecdb-mcp), so a token holder cannot list or read the indexes the
// user's desktop servers keep. And a bulk import from file:// is checked against the CALLING server's allowed
// folders before anything is sent: a shared service started by another server with other --allow-dir folders does
// not lend them.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { startServiceProcess } from "../helpers/local-service.js";
import { startMcp } from "../helpers/mcp-client.js";
import { connect, startHttp } from "../helpers/http-server.js";
import { api, createIndex, serverless } from "./support.js";

const base = mkdtempSync(join(tmpdir(), "vecdb-team-"));
const cleanup: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  rmSync(base, { recursive: true, force: true });
});

function textOf(result: unknown): string {
  return ((result as { content: { type: string; text?: string }[] }).content ?? []).map((c) => c.text ?? "").join("\n");
}

describe("an --http server without a key or --data-dir", () => {
  it("does not see the personal indexes of the desktop servers, and says which data dir it uses", async () => {
    const home = join(base, "xdg");
    const personal = await startServiceProcess({ dataDir: join(home, "vecdb-mcp") });
    await createIndex(personal, { name: "personal-notes", dimension: 2, spec: serverless });
    await personal.stop();
    const env = { PINECONE_API_KEY: undefined, XDG_DATA_HOME: home, VECDB_LOCAL_IDLE_S: "5" };

    const desktop = await startMcp({ env });
    cleanup.push(() => desktop.close());
    expect((await desktop.call("list_indexes")).text).toContain("personal-notes"); // the desktop server does see it

    const team = await startHttp({ env });
    cleanup.push(() => team.stop());
    const { client } = await connect(team.url, { Authorization: `Bearer ${team.generatedToken}` });
    cleanup.push(() => client.close());
    const listed = textOf(await client.callTool({ name: "list_indexes", arguments: {} }));
    expect(listed).not.toContain("personal-notes");
    const fetched = textOf(await client.callTool({ name: "describe_index", arguments: { index: "personal-notes" } }));
    expect(fetched).toContain('the service answered HTTP 404 NOT_FOUND: "Index personal-notes not found."');
    expect(team.stderr()).toContain(`an HTTP server's own data dir, apart from the desktop servers' personal one`);
    expect(team.stderr()).toContain(`data dir ${join(home, "vecdb-mcp-http")}`);
  }, 90_000);
});

describe("start_bulk_import from file://", () => {
  it("is refused outside the calling server's --allow-dir, although the shared service may read there", async () => {
    const privateDir = join(base, "private");
    const teamDir = join(base, "team");
    mkdirSync(join(privateDir, "imp", "__default__"), { recursive: true });
    mkdirSync(teamDir, { recursive: true });
    // The service was started by another server, whose --allow-dir is the private folder.
    const svc = await startServiceProcess({ allowDirs: [privateDir] });
    cleanup.push(() => svc.stop());
    const { host } = await createIndex(svc, { name: "shared", dimension: 2, spec: serverless });

    const caller = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl }, args: ["--allow-dir", teamDir] });
    cleanup.push(() => caller.close());
    const uri = pathToFileURL(join(privateDir, "imp")).href;
    const r = await caller.call("start_bulk_import", { index: "shared", uri });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      `uri ${uri} is not under a folder this server may read. Allowed directories: ${teamDir}. Nothing was written.\n` +
        "Next step: Move the import folder under one of them, or ask the user to start this server with --allow-dir for it.",
    );
    const imports = await api<{ data: unknown[] }>(svc, "GET", `http://${host}/bulk/imports`);
    expect(imports.status).toBe(200);
    expect(imports.body.data).toEqual([]); // the request never reached the service
  }, 60_000);
});
