// Connections per client and per session, on a real node:http server in this process: past the cap a connection is on
// probation (served for a session, refused for a new one), past twice the cap it is refused at once; a connection that
// carries a session's request counts against the session, not its client.
import { createServer, type Server } from "node:http";
import { connect as netConnect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, expect, test } from "vitest";
import { limitConnections } from "../../../src/transports/http/connections.js";
import { TrustedProxies } from "../../../src/transports/http/client-address.js";
import type { Logger } from "../../../src/log.js";
import { until } from "../../helpers/until.js";

const quiet = { debug() {}, info() {}, warning() {}, error() {} } as unknown as Logger;
let server: Server;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
});

/** A server whose requests name their session in `X-Session` (none: a new session); it answers what the caps say. */
async function serve(max: number) {
  server = createServer();
  const caps = limitConnections(server, { maxPerClient: max, trusted: new TrustedProxies([]), log: quiet });
  server.on("request", (req, res) => {
    const session = req.headers["x-session"] as string | undefined;
    if (req.headers["x-end"]) caps.sessionEnded(req.headers["x-end"] as string);
    const refused = session ? caps.toSession(req.socket, session) : caps.forNewSession(req.socket);
    const body = refused ? refused.message : "ok";
    res.writeHead(refused ? refused.status : 200, { "Content-Length": Buffer.byteLength(body) }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return (server.address() as AddressInfo).port;
}

/** An open connection from `from`; `ask` sends one request on it and resolves with the raw answer. */
async function open(port: number, from = "127.0.0.1") {
  const s = netConnect({ port, host: "127.0.0.1", localAddress: from });
  sockets.push(s);
  let got = "";
  s.on("data", (c: Buffer) => (got += c.toString()));
  s.on("error", () => {});
  await new Promise<void>((r) => s.once("connect", () => r()));
  const closed = new Promise<void>((r) => s.once("close", () => r()));
  return {
    got: () => got,
    closed,
    async ask(headers: Record<string, string> = {}): Promise<string> {
      const before = got.length;
      s.write(`GET / HTTP/1.1\r\nHost: x\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("")}\r\n`);
      await until(() => /\r\n\r\n(ok|Service Unavailable.*)$/.test(got.slice(before)), "an answer");
      return got.slice(before).split("\r\n")[0];
    },
  };
}

test("past the cap a connection is on probation: served for a session, refused for a new one; past twice the cap refused at once, from any loopback address", async () => {
  const port = await serve(2);
  const within = [await open(port), await open(port, "127.0.0.2")];
  const probation = [await open(port, "127.0.0.3"), await open(port)];
  expect(await within[0].ask()).toBe("HTTP/1.1 200 OK");
  expect(await probation[0].ask()).toBe("HTTP/1.1 503 Service Unavailable");
  expect(await probation[1].ask({ "X-Session": "a" })).toBe("HTTP/1.1 200 OK"); // a session's request is never cut off
  // Four outside sessions now (the one of session a no longer counts): a fifth is taken on probation, a sixth refused.
  const fifth = await open(port, "127.0.0.4");
  const sixth = await open(port, "127.0.0.5");
  await sixth.closed;
  expect(sixth.got()).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n[\s\S]*Retry-After: 5/);
  expect(await fifth.ask({ "X-Session": "b" })).toBe("HTTP/1.1 200 OK");
});

test("a session holds at most the cap of connections; when it ends, its connections count against nothing", async () => {
  const port = await serve(2);
  const conns = [await open(port), await open(port), await open(port)];
  expect(await conns[0].ask({ "X-Session": "a" })).toBe("HTTP/1.1 200 OK");
  expect(await conns[1].ask({ "X-Session": "a" })).toBe("HTTP/1.1 200 OK");
  expect(await conns[2].ask({ "X-Session": "a" })).toBe("HTTP/1.1 503 Service Unavailable");
  expect(await conns[2].ask({ "X-Session": "b", "X-End": "a" })).toBe("HTTP/1.1 200 OK");
  // a's two connections are free of it: another session may use them, and new connections are not held back by them
  expect(await conns[0].ask({ "X-Session": "b" })).toBe("HTTP/1.1 200 OK");
  const fresh = [await open(port), await open(port)];
  expect(await fresh[0].ask()).toBe("HTTP/1.1 200 OK");
  expect(await fresh[1].ask()).toBe("HTTP/1.1 200 OK");
});
