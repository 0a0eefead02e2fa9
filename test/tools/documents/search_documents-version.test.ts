// The documents tools against a service that speaks only an older API version: every documents call names 2026-07
// (whatever PINECONE_API_VERSION says), and the service's refusal of that version reaches the model as a plain
// refusal saying the tools need 2026-07, with the records tools as the way on. The service here is a small loopback
// HTTP server standing in for such a service (the local service speaks 2026-07).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startMcp, type McpSession } from "../../helpers/mcp-client.js";
import { refusalOf } from "../../helpers/refusal.js";

let server: Server;
let mcp: McpSession;
const versions: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url?.startsWith("/_vecdb/identity")) return void res.writeHead(404, { "content-length": "0" }).end(); // not the local service
    const version = String(req.headers["x-pinecone-api-version"]);
    versions.push(`${req.method} ${req.url} ${version}`);
    res.writeHead(400, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { code: "INVALID_ARGUMENT", message: `Unsupported API version: ${version}` }, status: 400 }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  mcp = await startMcp({ env: { PINECONE_API_KEY: "older-service-key", PINECONE_CONTROLLER_HOST: `http://127.0.0.1:${port}`, PINECONE_API_VERSION: "2026-04", VECDB_RETRIES: "0" } });
});
afterAll(async () => {
  await mcp?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe("search_documents and create_documents_index need 2026-07", () => {
  const NEXT = "use the records tools (create_index_for_model, upsert_records, search_records) with this service, or a service that speaks 2026-07.";

  test("a search is refused plainly; the request named 2026-07", async () => {
    versions.length = 0;
    const r = await mcp.call("search_documents", { index: "notes", words: "harbor" });
    expect(refusalOf(r.text)).toEqual({
      problem: "The documents tools need API version 2026-07, and the service refused it (400: Unsupported API version: 2026-07)",
      untouched: "read",
      next: NEXT,
    });
    expect(versions).toEqual(["GET /indexes/notes 2026-07"]);
  });

  test("so is making an index", async () => {
    versions.length = 0;
    const r = await mcp.call("create_documents_index", { name: "notes", textFields: ["text"] });
    expect(refusalOf(r.text)).toEqual({
      problem: "The documents tools need API version 2026-07, and the service refused it (400: Unsupported API version: 2026-07)",
      untouched: "created",
      next: NEXT,
    });
    expect(versions).toEqual(["POST /indexes 2026-07"]);
  });
});
