// The protocol's edges, measured with raw JSON-RPC lines over stdio against the built server: batches by protocol
// version, a line that is not JSON, malformed params, params nested too deep, and what the capabilities promise.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { CLI, ROOT, serverEnv } from "../helpers/mcp-client.js";

interface RawStdio {
  send(line: string | object): void;
  /** The next message whose id is `id` (or, for id null, the next error with id null). */
  answer(id: number | string | null): Promise<any>;
  /** The next line that is an array (a batch answer). */
  batch(): Promise<any[]>;
  close(): void;
}

function rawServer(svc: RunningService): RawStdio {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [CLI], {
    env: serverEnv({ PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl }),
    cwd: ROOT,
  });
  const lines: unknown[] = [];
  let waiters: (() => void)[] = [];
  let buf = "";
  child.stdout.on("data", (c: Buffer) => {
    buf += c.toString("utf8");
    let nl: number;
    while ((nl = buf.indexOf("\n")) !== -1) {
      lines.push(JSON.parse(buf.slice(0, nl)));
      buf = buf.slice(nl + 1);
    }
    const w = waiters;
    waiters = [];
    w.forEach((f) => f());
  });
  const next = (match: (m: any) => boolean) =>
    new Promise<any>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching answer within 10 s; got ${JSON.stringify(lines).slice(0, 500)}`)), 10_000);
      const look = () => {
        const i = lines.findIndex(match);
        if (i === -1) return void waiters.push(look);
        clearTimeout(timer);
        resolve(lines.splice(i, 1)[0]);
      };
      look();
    });
  return {
    send: (line) => child.stdin.write(`${typeof line === "string" ? line : JSON.stringify(line)}\n`),
    answer: (id) => next((m) => !Array.isArray(m) && m.id === id && ("result" in m || "error" in m)),
    batch: () => next(Array.isArray),
    close: () => child.stdin.end(),
  };
}

const initialize = (version: string) => ({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

async function session(svc: RunningService, version: string): Promise<{ s: RawStdio; init: any }> {
  const s = rawServer(svc);
  s.send(initialize(version));
  const init = await s.answer(0);
  s.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { s, init };
}

let svc: RunningService;
const open: RawStdio[] = [];
beforeAll(async () => {
  svc = await startServiceProcess();
});
afterAll(async () => {
  open.forEach((s) => s.close());
  await svc?.stop();
});

describe("a session at 2025-03-26", () => {
  test("a batch is answered with one array holding every request's answer", async () => {
    const { s, init } = await session(svc, "2025-03-26");
    open.push(s);
    expect(init.result.protocolVersion).toBe("2025-03-26");
    s.send([
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_indexes", arguments: {} } },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99 } },
    ]);
    const answers = await s.batch();
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2]);
    expect(answers.find((a) => a.id === 1)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(answers.find((a) => a.id === 2).result.structuredContent).toEqual({ indexes: [] });
  });
});

describe("a session at 2025-06-18", () => {
  let s: RawStdio;
  let init: any;
  beforeAll(async () => {
    ({ s, init } = await session(svc, "2025-06-18"));
    open.push(s);
  });

  test("a batch is refused with -32600 (that version removed them); the session goes on", async () => {
    s.send([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
    expect(await s.answer(null)).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message: "Invalid Request: a batch in a session at protocol version 2025-06-18, which has no JSON-RPC batches; send each message on its own line",
      },
    });
    s.send({ jsonrpc: "2.0", id: 3, method: "ping" });
    expect(await s.answer(3)).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
  });

  test("a line that is not JSON gets -32700 with id null", async () => {
    s.send("{this is not json");
    expect(await s.answer(null)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the line is not valid JSON" } });
  });

  test("tools/call without a name: -32602 with one short line", async () => {
    s.send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { arguments: {} } });
    expect((await s.answer(4)).error).toEqual({ code: -32602, message: "Invalid params for tools/call: params.name is required (string)" });
  });

  test("logging/setLevel with an unknown level: -32602 naming the levels", async () => {
    s.send({ jsonrpc: "2.0", id: 5, method: "logging/setLevel", params: { level: "verbose" } });
    expect((await s.answer(5)).error).toEqual({
      code: -32602,
      message:
        'Invalid params for logging/setLevel: params.level must be one of "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"',
    });
    s.send({ jsonrpc: "2.0", id: 6, method: "logging/setLevel", params: { level: "info" } });
    expect(await s.answer(6)).toEqual({ jsonrpc: "2.0", id: 6, result: {} });
  });

  test("arguments nested 100,000 deep are refused up front with -32602 and the limit; the server stays up", async () => {
    const deep = '{"$and":['.repeat(100_000) + "1" + "]}".repeat(100_000); // as text: JSON.stringify would overflow here
    s.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"query_vectors","arguments":{"index":"x","topK":1,"filter":${deep}}}}`);
    const { error } = await s.answer(7);
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(
      /^Invalid params: nested deeper than 64 levels \(at params\.arguments\.filter\.\$and\[0\][^)]*…\); this server accepts at most 64 levels of objects and arrays$/,
    );
    s.send({ jsonrpc: "2.0", id: 8, method: "ping" });
    expect(await s.answer(8)).toEqual({ jsonrpc: "2.0", id: 8, result: {} });
  });

  test("capabilities do not promise tools/list_changed (the tool list is fixed for a session)", () => {
    expect(init.result.capabilities.tools).toEqual({});
    expect(init.result.capabilities.tools.listChanged).toBeUndefined();
  });
});
