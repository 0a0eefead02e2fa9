// The SDK v2 client speaking protocol 2026-07-28 (no initialize, per-request _meta) to the BUILT server, over stdio
// or HTTP: for the tests of the new era. The old era's client is the v1 SDK's (mcp-client.ts).
import { existsSync } from "node:fs";
import { Client, StreamableHTTPClientTransport, type CallToolResult, type ElicitRequest, type ElicitResult } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { allToolsets, CLI, ROOT, serverEnv } from "./mcp-client.js";

export const MODERN = "2026-07-28";

export interface ModernSession {
  client: Client;
  stderr(): string;
  call(name: string, args?: Record<string, unknown>, opts?: { signal?: AbortSignal; onprogress?: (p: { progress: number }) => void }): Promise<CallToolResult>;
  close(): Promise<void>;
}

function newClient(elicit?: (params: ElicitRequest["params"]) => ElicitResult | Promise<ElicitResult>): Client {
  const client = new Client(
    { name: "vecdb-mcp-e2e-modern", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: MODERN } }, capabilities: elicit ? { elicitation: { form: {} } } : {} },
  );
  if (elicit) client.setRequestHandler("elicitation/create", async (request) => elicit(request.params));
  return client;
}

function session(client: Client, stderr: () => string): ModernSession {
  return {
    client,
    stderr,
    call: (name, args = {}, opts = {}) =>
      client.callTool({ name, arguments: args }, { timeout: 120_000, ...(opts.signal && { signal: opts.signal }), ...(opts.onprogress && { onprogress: opts.onprogress }) }),
    close: () => client.close().catch(() => {}),
  };
}

/** The built server over stdio, spoken to in the new era. */
export async function startModernStdio(opts: {
  env: Record<string, string | undefined>;
  args?: string[];
  elicit?: (params: ElicitRequest["params"]) => ElicitResult | Promise<ElicitResult>;
}): Promise<ModernSession> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first with \`npm run build\``);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, ...allToolsets(opts.args ?? [], opts.env)],
    env: serverEnv(opts.env),
    stderr: "pipe",
    cwd: ROOT,
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const client = newClient(opts.elicit);
  await client.connect(transport);
  return session(client, () => stderr);
}

/** An HTTP server's endpoint, spoken to in the new era (no session: every request stands alone). */
export async function connectModernHttp(
  url: string,
  headers: Record<string, string> = {},
  elicit?: (params: ElicitRequest["params"]) => ElicitResult | Promise<ElicitResult>,
): Promise<ModernSession> {
  const client = newClient(elicit);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return session(client, () => "");
}

/** A raw 2026-07-28 request: the version and capabilities in _meta, the method (and a tool's name) in headers too. */
export function modernRequest(
  id: number | string,
  method: string,
  params: Record<string, unknown> = {},
  opts: { token?: string; name?: string; capabilities?: Record<string, unknown> } = {},
): { headers: Record<string, string>; body: { jsonrpc: "2.0"; id: number | string; method: string; params: Record<string, unknown> } } {
  return {
    headers: {
      ...(opts.token && { Authorization: `Bearer ${opts.token}` }),
      "MCP-Protocol-Version": MODERN,
      "Mcp-Method": method,
      ...(opts.name !== undefined && { "Mcp-Name": opts.name }),
    },
    body: {
      jsonrpc: "2.0",
      id,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": MODERN,
          "io.modelcontextprotocol/clientCapabilities": opts.capabilities ?? {},
          "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
        },
      },
    },
  };
}
