// 128 sessions behind a proxy: a reverse proxy in the bench (node:http, keep-alive, streams both ways, adds
// X-Forwarded-For like a TLS terminator would) in front of the --http server with its default caps. Every client
// reaches the server from the proxy's one address. Two runs: the proxy not trusted (the server counts all sessions
// as one client: loopback) and trusted with --trusted-proxies (each client counted by the address the proxy forwards).
// All BENCH_PROXY_SESSIONS sessions initialize at once, then each makes BENCH_PROXY_CALLS mixed calls; reported: the
// sessions that ran every call, the ones left orphaned (initialized, then a request refused), errors, calls/s.
import { createServer, request, Agent as HttpAgent } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { connect } from "../test/helpers/http-server.js";
import { AUTH, mixedCall, startBenchServer } from "./http-lib.js";
import { createIndex, makeRecords, withService } from "./lib.js";

const SESSIONS = Number(process.env.BENCH_PROXY_SESSIONS ?? 128);
const CALLS = Number(process.env.BENCH_PROXY_CALLS ?? 10);
const DIMENSION = 64;

/** A reverse proxy to `target`; the client's address it forwards is the X-Bench-Client header (standing in for the
 * many client machines a real proxy serves), or the connection's own. */
async function startProxy(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const agent = new HttpAgent({ keepAlive: true });
  const proxy = createServer(async (req, res) => {
    const client = (req.headers["x-bench-client"] as string | undefined) ?? req.socket.remoteAddress ?? "";
    const headers = { ...req.headers, host: upstream.host, "x-forwarded-for": client };
    delete headers["x-bench-client"];
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    // As a real proxy does: a request sent on a kept-alive connection the server closed meanwhile (its keep-alive
    // timeout, 5 s) is sent again, on another connection.
    const send = (tries: number) => {
      const out = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers, agent }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        res.on("close", () => answer.destroy());
      });
      out.on("error", (err: NodeJS.ErrnoException) => {
        if (tries > 0 && out.reusedSocket && err.code === "ECONNRESET") return send(tries - 1);
        if (process.env.BENCH_VERBOSE) process.stderr.write(`proxy: ${req.method} upstream ${err.code ?? err.message}\n`);
        res.destroy();
      });
      out.end(body);
    };
    send(3);
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", () => r()));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    close: () => new Promise<void>((r) => (proxy.closeAllConnections(), agent.destroy(), proxy.close(() => r()))),
  };
}

export async function benchHttpProxy(): Promise<void> {
  await withService(async (service) => {
    await createIndex(service, "proxied", DIMENSION);
    for (const trusted of [false, true]) {
      const server = await startBenchServer(service, trusted ? ["--trusted-proxies", "127.0.0.1", "--allowed-hosts", "127.0.0.1"] : ["--allowed-hosts", "127.0.0.1"]);
      const proxy = await startProxy(server.url);
      let ran = 0;
      let orphaned = 0;
      let refusedAtStart = 0;
      let errors = 0;
      let calls = 0;
      let refusals = 0;
      const started = performance.now();
      try {
        await Promise.all(
          Array.from({ length: SESSIONS }, async (_, s) => {
            const headers = { ...AUTH, "X-Bench-Client": `198.51.100.${s % 250}` };
            let session: Awaited<ReturnType<typeof connect>>;
            try {
              session = await connect(proxy.url, headers);
            } catch {
              refusedAtStart++;
              return;
            }
            const records = makeRecords(50, DIMENSION, s + 1, `p${s}-`);
            let ok = 0;
            for (let c = 0; c < CALLS; c++) {
              try {
                if ((await mixedCall(session.client, "proxied", `p${s}`, records, c)) === undefined) errors++;
                else ok++;
              } catch (err) {
                errors++;
                if (process.env.BENCH_VERBOSE) process.stderr.write(`session ${s} call ${c}: ${String((err as Error).message).slice(0, 300)}\n`);
              }
              calls++;
            }
            if (ok === CALLS) ran++;
            else if (ok === 0) orphaned++;
            await session.transport.terminateSession().catch(() => {});
            await session.client.close();
          }),
        );
      } finally {
        refusals = server.stderr().match(/vecdb-mcp info: refused/g)?.length ?? 0;
        if (process.env.BENCH_VERBOSE) process.stderr.write(server.stderr().split("\n").filter((l) => !/listening|Authorization|client entry|VECDB_HTTP_TOKEN/.test(l)).slice(-30).join("\n"));
        await proxy.close();
        await server.stop();
      }
      const seconds = (performance.now() - started) / 1000;
      process.stdout.write(
        `http behind a proxy (${trusted ? "trusted: --trusted-proxies, each client counted by its forwarded address" : "not trusted: every client counted as the proxy's address"}), ` +
          `default caps: ${ran} of ${SESSIONS} sessions ran all ${CALLS} calls, ${refusedAtStart} refused at initialize, ${orphaned} orphaned, ${errors} errors, ${refusals} refusals logged by the server, ` +
          `${(calls / seconds).toFixed(0)} calls/s\n`,
      );
      if (ran !== SESSIONS) throw new Error(`${SESSIONS - ran} sessions did not run`);
    }
  });
}
