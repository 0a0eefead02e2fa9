// Starts the BUILT server with --http (`node dist/vecdb-mcp.js --http --port 0`) and talks to it: the SDK's own
// StreamableHTTPClientTransport + Client, or raw HTTP (node:http, so that any header, or a half-sent body, is possible).
import { spawn, type ChildProcess } from "node:child_process";
import { request as httpRequest, type ClientRequest } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { allToolsets, CLI, ROOT, serverEnv } from "./mcp-client.js";

export interface HttpServerProcess {
  url: string;
  port: number;
  /** The token the server generated, when it did (parsed from its stderr). */
  generatedToken?: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
  exited: Promise<number | null>;
}

export function startHttp(opts: { env: Record<string, string | undefined>; args?: string[]; asGiven?: boolean }): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [CLI, "--http", "--port", "0", ...allToolsets(opts.args ?? [], opts.env, opts.asGiven)], {
    env: serverEnv(opts.env),
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString("utf8")));
  child.stderr!.on("data", (c: Buffer) => (err += c.toString("utf8")));
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within 20 s; stderr:\n${err}`)), 20_000);
    void exited.then((code) => reject(new Error(`exited with ${code} before listening; stderr:\n${err}`)));
    const onData = () => {
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (!m) return;
      child.stderr!.off("data", onData);
      clearTimeout(timer);
      resolve({
        url: m[1],
        port: Number(new URL(m[1]).port),
        generatedToken: /Authorization: Bearer (\S+)\n/.exec(err)?.[1],
        child,
        stdout: () => out,
        stderr: () => err,
        exited,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
          return exited;
        },
      });
    };
    child.stderr!.on("data", onData);
  });
}

export async function connect(url: string, headers: Record<string, string> = {}, fetchImpl?: typeof fetch) {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers }, ...(fetchImpl && { fetch: fetchImpl }) });
  const client = new Client({ name: "vecdb-mcp-http-e2e", version: "1.0.0" }, { capabilities: {} });
  await client.connect(transport);
  return { client, transport };
}

export const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request (node:http, so that Host and Origin can be anything). */
export function raw(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | object; localAddress?: string } = {},
): Promise<RawResponse> {
  const u = new URL(url);
  const body = opts.body === undefined ? undefined : typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: opts.method ?? "POST",
        localAddress: opts.localAddress,
        agent: false,
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          ...opts.headers,
        },
      },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString("utf8")));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Starts a POST whose body is sent later (or never): for slow and half-sent requests. */
export function openPost(url: string, headers: Record<string, string> = {}, localAddress?: string): { req: ClientRequest; response: Promise<RawResponse> } {
  const u = new URL(url);
  let req!: ClientRequest;
  const response = new Promise<RawResponse>((resolve, reject) => {
    req = httpRequest(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: "POST",
        agent: false,
        localAddress,
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
      },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString("utf8")));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.flushHeaders();
  });
  return { req, response };
}

export const rpcError = (body: string) => (JSON.parse(body) as { error: { code: number; message: string } }).error;

/** The JSON-RPC messages of an SSE (or plain JSON) response body. */
export function sseMessages(body: string): any[] {
  if (body.trimStart().startsWith("{") || body.trimStart().startsWith("[")) return [JSON.parse(body)];
  return body
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice(6)));
}
