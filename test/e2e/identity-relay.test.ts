// The API key never reaches a relay. Another local user takes a port the local service freed and forwards the
// client's identity question to a live port of the real service, passing the answer back. The proof binds the port
// the client dialled and what it expects there (the control plane, or one index), so a relayed answer is for the wrong
// port and the key is not sent. A controller that fails the proof at first contact is refused every time, not waved
// through for the rest of the process.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, serveOnPort, indexHostCachedThenFreed } from "../helpers/fixed-port-service.js";
import { newDataDir } from "../helpers/local-service.js";
import { startMcp } from "../helpers/mcp-client.js";
import { api } from "./support.js";

const apiKey = `relay-test-${"k".repeat(20)}`;
const dataDir = newDataDir();
const cleanup: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  rmSync(dataDir, { recursive: true, force: true });
});

// The relay runs as another local user (nobody, via setpriv) where this process may switch to one, as CI (root) can.
const SETPRIV = "setpriv";
const asOtherUser = process.getuid?.() === 0 && spawnSync(SETPRIV, ["--version"]).status === 0;
if (!asOtherUser) console.warn("identity-relay: the relay runs as this user (switching to nobody needs root and setpriv, as CI has)");

const RELAY = `
const { connect, createServer } = require("node:net");
const { appendFileSync, readFileSync } = require("node:fs");
const [port, targetFile, logFile] = process.argv.slice(1);
createServer((client) => {
  const upstream = connect(Number(readFileSync(targetFile, "utf8")), "127.0.0.1");
  client.on("data", (c) => { appendFileSync(logFile, c); upstream.write(c); });
  upstream.on("data", (c) => client.write(c));
  for (const [a, b] of [[client, upstream], [upstream, client]]) { a.on("close", () => b.destroy()); a.on("error", () => b.destroy()); }
}).listen(Number(port), "127.0.0.1", () => process.stdout.write("relaying\\n"));
`;

/** A byte-for-byte TCP forwarder on `port` to the port written in its target file; keeps everything the client sent it. */
async function relay(port: number): Promise<{ target(port: number): void; sent(): string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "vecdb-relay-"));
  chmodSync(dir, 0o777);
  const targetFile = join(dir, "target");
  const logFile = join(dir, "received");
  writeFileSync(targetFile, "0", { mode: 0o644 });
  writeFileSync(logFile, "");
  chmodSync(logFile, 0o666); // the relay, as nobody, writes there (a mode given at creation is cut by the umask)
  const node = [process.execPath, "-e", RELAY, String(port), targetFile, logFile];
  const child = asOtherUser
    ? spawn(SETPRIV, ["--reuid=nobody", "--regid=nogroup", "--clear-groups", ...node], { stdio: ["ignore", "pipe", "inherit"] })
    : spawn(node[0], node.slice(1), { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`the relay exited with ${code}`)));
  });
  return {
    target: (p) => writeFileSync(targetFile, String(p)),
    sent: () => readFileSync(logFile, "latin1"),
    stop: async () => {
      if (child.exitCode === null) await new Promise((r) => (child.once("exit", r), child.kill("SIGTERM")));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe("a relay on a freed port", () => {
  it("on an index's old port: forwards the identity question to the index's new port, is refused, never gets the key", async () => {
    const { svc, mcp, oldPort, restart } = await indexHostCachedThenFreed("rl", dataDir, apiKey, cleanup);
    const squatter = await relay(oldPort);
    cleanup.push(() => squatter.stop());
    await restart();
    const described = await api(svc, "GET", `${svc.controlUrl}/indexes/rl`);
    const newPort = Number(String(described.body.host).split(":").pop());
    expect(newPort).not.toBe(oldPort);
    squatter.target(newPort);

    const after = await mcp.call("fetch_vectors", { index: "rl", ids: ["a"] });
    expect(after.isError, after.text).toBe(false); // the call found the index where it now is
    expect(JSON.stringify(after.structured)).toContain('"a"');
    expect(squatter.sent()).toContain("GET /_vecdb/identity?nonce="); // the relay was asked, and forwarded the question…
    expect(squatter.sent().toLowerCase()).not.toContain("api-key"); // …but no request with the key followed
    expect(squatter.sent()).not.toContain(apiKey.slice(0, 8));
  }, 60_000);

  it("in front of the controller: refused at first contact and on every later call; the key never reaches it", async () => {
    const controlPort = await freePort();
    const svc = { controlUrl: `http://127.0.0.1:${controlPort}`, apiKey };
    const otherDir = newDataDir();
    cleanup.push(() => rmSync(otherDir, { recursive: true, force: true }));
    const service = await serveOnPort(controlPort, otherDir, apiKey);
    cleanup.push(() => service.stop());
    const relayPort = await freePort();
    const squatter = await relay(relayPort);
    squatter.target(controlPort);
    cleanup.push(() => squatter.stop());

    const mcp = await startMcp({ env: { PINECONE_API_KEY: apiKey, PINECONE_CONTROLLER_HOST: `http://127.0.0.1:${relayPort}` } });
    cleanup.push(() => mcp.close());
    for (let i = 0; i < 2; i++) {
      const listed = await mcp.call("list_indexes", {});
      expect(listed.isError).toBe(true);
      expect(listed.text).toContain(`the service listening at http://127.0.0.1:${relayPort} could not prove it is the vecdb-mcp local service`);
      expect(listed.text).toContain("the API key was not sent\nNext step: Check PINECONE_API_KEY and PINECONE_CONTROLLER_HOST");
    }
    expect(squatter.sent()).toContain("GET /_vecdb/identity?nonce=");
    expect(squatter.sent().toLowerCase()).not.toContain("api-key");
  }, 60_000);
});
