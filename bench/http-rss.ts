// Peak resident memory of the --http server while large upsert_vectors bodies arrive at once: one call alone (the
// reference, same run), then BENCH_HTTP_RSS_CALLS at once with the default budget of body bytes in flight (256 MiB)
// and with a budget that holds one body (--max-body-mb-in-flight). A call refused with 503 is sent again after its
// Retry-After, as a client should; every call must end with all its records written.
import { request } from "node:http";
import { readFileSync } from "node:fs";
import { startHttp } from "../test/helpers/http-server.js";
import { createIndex, makeRecords, mb, withService } from "./lib.js";

const COUNT = Number(process.env.BENCH_HTTP_RSS_COUNT ?? 10_000);
const CALLS = Number(process.env.BENCH_HTTP_RSS_CALLS ?? 4);
const DIMENSION = 768;

function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; retryAfter?: string; text: string; session?: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Content-Length": Buffer.byteLength(body), ...headers },
      },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString("utf8")));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers["retry-after"] as string | undefined, text, session: res.headers["mcp-session-id"] as string | undefined }),
        );
      },
    );
    // Refused before the body was sent (503 + Connection: close), the write can fail before the answer is read.
    req.on("error", (err: NodeJS.ErrnoException) => (err.code === "EPIPE" || err.code === "ECONNRESET" ? resolve({ status: 503, retryAfter: "1", text: "" }) : reject(err)));
    req.end(body);
  });
}

function peakOf(pid: number): number {
  const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) * 1024 : 0;
}

async function run(env: Record<string, string>, args: string[], bodies: string[]): Promise<{ peak: number; retries: number }> {
  const server = await startHttp({ env, args: ["--insecure-http-no-token", ...args] });
  try {
    const init = await post(server.url, {}, JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } } }));
    const headers = { "Mcp-Session-Id": init.session!, "Mcp-Protocol-Version": "2025-06-18" };
    let retries = 0;
    await Promise.all(
      bodies.map(async (body) => {
        for (;;) {
          const r = await post(server.url, headers, body);
          if (r.status === 503 && r.retryAfter) {
            retries++;
            await new Promise((res) => setTimeout(res, Number(r.retryAfter) * 1000));
            continue;
          }
          if (r.status !== 200 || !r.text.includes('"upserted":' + COUNT)) throw new Error(`upsert failed: ${r.status} ${r.text.slice(0, 300)}`);
          return;
        }
      }),
    );
    return { peak: peakOf(server.child.pid!), retries };
  } finally {
    await server.stop();
  }
}

export async function benchHttpRss(): Promise<void> {
  await withService(async (service) => {
    await createIndex(service, "rss", DIMENSION);
    const env = { PINECONE_API_KEY: service.apiKey, PINECONE_CONTROLLER_HOST: service.controlUrl };
    const bodies = Array.from({ length: CALLS }, (_, c) =>
      JSON.stringify({
        jsonrpc: "2.0",
        id: c + 1,
        method: "tools/call",
        params: { name: "upsert_vectors", arguments: { index: "rss", namespace: `c${c}`, vectors: makeRecords(COUNT, DIMENSION, c + 1, `c${c}`).map(({ id, values }) => ({ id, values })) } },
      }),
    );
    const size = Buffer.byteLength(bodies[0]);
    const one = await run(env, [], bodies.slice(0, 1));
    const all = await run(env, [], bodies);
    const oneAtATime = await run(env, ["--max-body-mb-in-flight", String(Math.ceil(size / (1024 * 1024)) + 1)], bodies);
    process.stdout.write(
      `http upsert bodies of ${mb(size)} (${COUNT} × ${DIMENSION}): one call alone peaks at ${mb(one.peak)}; ${CALLS} at once ` +
        `${mb(all.peak)} with the default 256 MiB budget (${all.retries} retries after 503), ${mb(oneAtATime.peak)} with a budget of one body ` +
        `(${oneAtATime.retries} retries after 503); ratio ${(all.peak / one.peak).toFixed(2)}× and ${(oneAtATime.peak / one.peak).toFixed(2)}× the single call\n`,
    );
  });
}
