// The MCP client of the million-call soak, in raw HTTP over one keep-alive pool (undici): the SDK client costs more CPU
// per call than the server it measures, and a million calls must fit in a shared machine's half hour. It speaks both
// eras as the SDK clients do on the wire: an old-era session (initialize, notifications/initialized, the standalone
// GET stream, calls with Mcp-Session-Id, DELETE) and new-era calls that stand alone (protocol version and
// capabilities in _meta, Mcp-Method / Mcp-Name headers).
import { Agent, request } from "undici";

const OLD = "2025-06-18";
const MODERN = "2026-07-28";
const CLIENT_INFO = { name: "vecdb-soak", version: "1" };

export interface ToolAnswer {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}

export interface SoakEndpoint {
  url: string;
  headers: Record<string, string>;
  agent: Agent;
}

export function soakEndpoint(url: string, headers: Record<string, string>, connections: number): SoakEndpoint {
  // Idle connections dropped after 1 s, well within the server's 5 s keep-alive: a request sent on a connection the
  // server is closing fails ("other side closed") on a loaded machine, the client's race rather than the server's.
  return { url, headers, agent: new Agent({ connections, pipelining: 1, keepAliveTimeout: 1000, keepAliveMaxTimeout: 1000 }) };
}

/** The JSON-RPC answer of a POST: a JSON body or the `data:` lines of an SSE stream (the answer is the message with an id). */
function answerOf(text: string): { result?: unknown; error?: { code: number; message: string } } {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{")) return JSON.parse(trimmed);
  for (const line of text.split("\n")) {
    if (!line.startsWith("data: ")) continue;
    const message = JSON.parse(line.slice(6)) as { id?: unknown };
    if (message.id !== undefined) return message as never;
  }
  throw new Error(`no answer in the response: ${text.slice(0, 200)}`);
}

async function post(endpoint: SoakEndpoint, headers: Record<string, string>, body: unknown): Promise<{ status: number; text: string; session?: string }> {
  const res = await request(endpoint.url, {
    method: "POST",
    dispatcher: endpoint.agent,
    headers: { ...endpoint.headers, "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  const session = res.headers["mcp-session-id"];
  return { status: res.statusCode, text, ...(typeof session === "string" && { session }) };
}

function toolAnswer(name: string, r: { status: number; text: string }): ToolAnswer {
  if (r.status !== 200) throw new Error(`${name}: HTTP ${r.status} ${r.text.slice(0, 200)}`);
  const answer = answerOf(r.text);
  if (answer.error) throw new Error(`${name}: ${answer.error.code} ${answer.error.message}`);
  return answer.result as ToolAnswer;
}

let nextId = 1;

/** An old-era session, opened as the SDK client opens one (with its standalone GET stream). */
export class OldEraSession {
  private constructor(
    private readonly endpoint: SoakEndpoint,
    private readonly id: string,
    private readonly stream: Promise<void>,
  ) {}

  static async open(endpoint: SoakEndpoint): Promise<OldEraSession> {
    const init = await post(endpoint, {}, {
      jsonrpc: "2.0",
      id: nextId++,
      method: "initialize",
      params: { protocolVersion: OLD, capabilities: {}, clientInfo: CLIENT_INFO },
    });
    toolAnswer("initialize", init);
    if (!init.session) throw new Error("initialize: no Mcp-Session-Id");
    const headers = { "Mcp-Session-Id": init.session, "MCP-Protocol-Version": OLD };
    const initialized = await post(endpoint, headers, { jsonrpc: "2.0", method: "notifications/initialized" });
    if (initialized.status !== 202) throw new Error(`notifications/initialized: HTTP ${initialized.status}`);
    const get = await request(endpoint.url, { method: "GET", dispatcher: endpoint.agent, headers: { ...endpoint.headers, ...headers, Accept: "text/event-stream" } });
    if (get.statusCode !== 200) throw new Error(`GET stream: HTTP ${get.statusCode}`);
    // Read until the server ends it (at DELETE).
    const stream = (async () => {
      for await (const _ of get.body);
    })().catch(() => {});
    return new OldEraSession(endpoint, init.session, stream);
  }

  async call(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
    const r = await post(this.endpoint, { "Mcp-Session-Id": this.id, "MCP-Protocol-Version": OLD }, { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, arguments: args } });
    return toolAnswer(name, r);
  }

  /** DELETE, then the GET stream's end. */
  async close(): Promise<void> {
    const res = await request(this.endpoint.url, {
      method: "DELETE",
      dispatcher: this.endpoint.agent,
      headers: { ...this.endpoint.headers, "Mcp-Session-Id": this.id, "MCP-Protocol-Version": OLD },
    });
    await res.body.dump();
    if (res.statusCode !== 200) throw new Error(`DELETE: HTTP ${res.statusCode}`);
    await this.stream;
  }
}

/** One new-era tool call: no session, everything the server needs in the request. */
export async function modernCall(endpoint: SoakEndpoint, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const body = {
    jsonrpc: "2.0",
    id: nextId++,
    method: "tools/call",
    params: {
      name,
      arguments: args,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
      },
    },
  };
  const r = await post(endpoint, { "MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call", "Mcp-Name": name }, body);
  return toolAnswer(name, r);
}
