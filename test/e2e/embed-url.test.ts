// The embeddings server's address and key: a URL with credentials (user:pass@, a query string) is refused before
// anything starts, without repeating it; the URL reaches a shared service by environment, never on its command line
// (which every user reads in ps); a 401 is answered at once as a setting to fix, not retried; a redirect is not
// followed (the key would go where it points).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { configRefusal } from "../helpers/config-refusal.js";
import { EmbeddingsServer } from "../../src/local/models/openai-server.js";
import { startEmbeddingsServer, TEST_MODEL } from "../helpers/embeddings-server.js";
import { startMcp, type McpSession } from "../helpers/mcp-client.js";
import { cliPath } from "../helpers/local-service.js";

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function listen(handler: (req: { url?: string; headers: IncomingHttpHeaders }, res: import("node:http").ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => req.resume().on("end", () => handler(req, res)));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  cleanups.push(() => new Promise((r) => server.close(r)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("--embed-url", () => {
  const secretUrls = ["http://me:embed-secret-pass@127.0.0.1:11434/v1", "http://127.0.0.1:11434/v1?key=embed-secret-pass"];

  test("with user:pass@ or a query string: refused by the server's settings and by serve, the URL not repeated", () => {
    const [withUser, withQuery] = secretUrls;
    const byUser = configRefusal(["--embed-url", withUser], {});
    expect(byUser).toContain("--embed-url / VECDB_EMBED_URL must not hold a user name or password (user:pass@): it is shown in logs and by list_models; give the embeddings server's key in VECDB_EMBED_KEY");
    const byQuery = configRefusal([], { VECDB_EMBED_URL: withQuery });
    expect(byQuery).toContain("--embed-url / VECDB_EMBED_URL must not hold a query string or fragment (?…, #…)");
    for (const text of [byUser, byQuery]) expect(text).not.toContain("embed-secret-pass");
    for (const [args, env] of [
      [["--embed-url", withQuery], {}],
      [[], { VECDB_EMBED_URL: withUser }],
    ] as [string[], Record<string, string>][]) {
      let out = "";
      try {
        execFileSync(process.execPath, [cliPath, "serve", "--data-dir", mkdtempSync(join(tmpdir(), "vecdb-embed-")), "--port", "0", ...args], { env: { ...process.env, ...env }, stdio: "pipe" });
      } catch (e) {
        out = String((e as { stderr: Buffer }).stderr);
      }
      expect(out).toMatch(/^vecdb-mcp serve: --embed-url \/ VECDB_EMBED_URL must not hold a (user name or password \(user:pass@\)|query string or fragment \(\?…, #…\))/);
      expect(out).not.toContain("embed-secret-pass");
    }
  });

  test("a 401 is answered once as a setting to fix (not a 502 retried); a redirect is not followed, the key not sent on", async () => {
    let unauthorized = 0;
    const denying = await listen((_req, res) => {
      unauthorized++;
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "invalid key embed-secret-key-ABCDEFGH" } }));
    });
    const client = new EmbeddingsServer({ url: `${denying.url}/v1`, key: "embed-secret-key-ABCDEFGH", retries: 4 });
    await expect(client.embed(TEST_MODEL, ["a"])).rejects.toMatchObject({
      status: 400,
      code: "FAILED_PRECONDITION",
      message: `The embeddings server at ${denying.url}/v1 refused the key (HTTP 401: invalid key [redacted]); set VECDB_EMBED_KEY to a key it accepts and restart the local service.`,
    });
    expect(unauthorized).toBe(1);

    const elsewhere: (string | undefined)[] = [];
    const target = await listen((req, res) => {
      elsewhere.push(req.headers.authorization);
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    const redirecting = await listen((_req, res) => res.writeHead(307, { location: `${target.url}/v1/embeddings` }).end());
    const redirected = new EmbeddingsServer({ url: `${redirecting.url}/v1`, key: "embed-secret-key-ABCDEFGH" });
    await expect(redirected.embed(TEST_MODEL, ["a"])).rejects.toMatchObject({
      status: 400,
      message: `The embeddings server at ${redirecting.url}/v1 answered POST /embeddings with a redirect (HTTP 307), which is not followed: set --embed-url to the address it serves on.`,
    });
    expect(elsewhere).toEqual([]);
  });

  test("a shared service started by the server gets the URL by environment: not in its command line, and it still serves the models", async () => {
    const embedder = await startEmbeddingsServer();
    cleanups.push(() => embedder.close());
    const dir = mkdtempSync(join(tmpdir(), "vecdb-embed-shared-"));
    const mcp: McpSession = await startMcp({ env: { VECDB_DATA_DIR: dir, VECDB_LOCAL_IDLE_S: "2" }, args: ["--embed-url", embedder.url] });
    cleanups.push(async () => {
      await mcp.close();
      try {
        process.kill((JSON.parse(readFileSync(join(dir, "service.json"), "utf8")) as { pid: number }).pid, "SIGKILL");
      } catch {
        // gone
      }
      rmSync(dir, { recursive: true, force: true });
    });
    const models = await mcp.call("list_models", {});
    expect(models.isError, models.text).toBe(false);
    expect(models.text).toContain(TEST_MODEL);
    const pid = (JSON.parse(readFileSync(join(dir, "service.json"), "utf8")) as { pid: number }).pid;
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    expect(cmdline).toContain("serve");
    expect(cmdline.join(" ")).not.toContain(embedder.url);
    expect(readdirSync(dir)).toContain("service.sock");
  }, 60_000);
});
