// Clients that misbehave at the HTTP level: a body that stops arriving, a request target that is no URL.
// None of them may hold up another request, a delete, or the shutdown, and each gets a bounded answer.
import { rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startLocalService } from "../../src/local/index.js";
import { newDataDir, startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { call, controlClient } from "./http.js";

const started: RunningService[] = [];
afterEach(async () => {
  for (const svc of started.splice(0)) {
    await svc.kill();
    rmSync(svc.dataDir, { recursive: true, force: true });
  }
});

async function service() {
  const svc = await startServiceProcess();
  started.push(svc);
  const api = controlClient(svc.controlUrl, svc.apiKey);
  const created = await api("POST", "/indexes", { name: "a", dimension: 2, spec: { pod: { environment: "us-east1-gcp", pod_type: "p1.x1" } } });
  expect(created.status).toBe(201);
  return { svc, api, host: (created.body as { host: string }).host };
}

interface Raw {
  socket: Socket;
  /** Everything the service sent, once it closed the connection. */
  closed: Promise<string>;
}

/** Sends raw bytes on a new connection to host:port and keeps it open. */
function raw(host: string, bytes: string): Raw {
  const [name, port] = [host.slice(0, host.lastIndexOf(":")), Number(host.slice(host.lastIndexOf(":") + 1))];
  const socket = connect(port, name);
  let received = "";
  socket.setEncoding("utf8").on("data", (c: string) => (received += c));
  socket.on("error", () => undefined);
  socket.write(bytes);
  return { socket, closed: new Promise((r) => socket.once("close", () => r(received))) };
}

/** An upsert whose headers promise 1000 bytes of body, of which only a few arrive. */
const stalledUpsert = (apiKey: string) =>
  `POST /vectors/upsert HTTP/1.1\r\nHost: x\r\nApi-Key: ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"vectors": [`;

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as unknown;

const within = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} took more than ${ms} ms`)), ms))]);

describe("slow and malformed clients", () => {
  it("a client stalled mid-body on an index's port holds up neither the delete of that index nor later changes", async () => {
    const { svc, api, host } = await service();
    const stalled = raw(host, stalledUpsert(svc.apiKey));
    await new Promise((r) => setTimeout(r, 200));
    expect((await within(api("DELETE", "/indexes/a"), 3000, "DELETE /indexes/a")).status).toBe(202);
    const again = await within(api("POST", "/indexes", { name: "b", dimension: 2, spec: { serverless: { cloud: "aws", region: "us-east-1" } } }), 3000, "POST /indexes");
    expect(again.status).toBe(201);
    expect(await within(stalled.closed, 3000, "closing the stalled connection")).toBe("");
  });

  it("a client that stops reading a large answer holds up neither the delete of that index nor later changes", async () => {
    const svc = await startServiceProcess();
    started.push(svc);
    const api = controlClient(svc.controlUrl, svc.apiKey);
    const created = await api("POST", "/indexes", { name: "wide", dimension: 1536, metric: "cosine", spec: { serverless: { cloud: "aws", region: "us-east-1" } } });
    expect(created.status).toBe(201);
    const host = (created.body as { host: string }).host;
    const values = (i: number) => Array.from({ length: 1536 }, (_, j) => Math.sin(i * 1536 + j));
    for (let b = 0; b < 2000; b += 50) {
      const vectors = Array.from({ length: 50 }, (_, i) => ({ id: `w${b + i}`, values: values(b + i) }));
      const up = await call(`http://${host}/vectors/upsert`, { method: "POST", apiKey: svc.apiKey, body: Buffer.from(JSON.stringify({ vectors })) });
      expect(up.status, JSON.stringify(up.body)).toBe(200);
    }
    // A ~34 MB answer: far more than the sockets hold, so it is still being written when the client stops reading.
    const query = JSON.stringify({ vector: values(0), topK: 2000, includeValues: true });
    const stalled = raw(host, `POST /query HTTP/1.1\r\nHost: x\r\nApi-Key: ${svc.apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(query)}\r\n\r\n${query}`);
    await new Promise((r) => stalled.socket.once("data", r));
    stalled.socket.pause();
    expect((await within(api("DELETE", "/indexes/wide"), 10_000, "DELETE /indexes/wide")).status).toBe(202);
    const again = await within(api("POST", "/indexes", { name: "b", dimension: 2, spec: { serverless: { cloud: "aws", region: "us-east-1" } } }), 10_000, "POST /indexes");
    expect(again.status).toBe(201);
    stalled.socket.resume();
    const received = await within(stalled.closed, 10_000, "closing the stalled connection");
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received.endsWith("\r\n0\r\n\r\n")).toBe(false); // cut off: no last chunk, so it cannot pass for a whole answer
  }, 60_000);

  it("SIGTERM closes cleanly (exit code 0) at once while a client is stalled mid-body", async () => {
    const { svc, host } = await service();
    raw(host, stalledUpsert(svc.apiKey));
    await new Promise((r) => setTimeout(r, 200));
    const exit = new Promise<number | null>((r) => svc.child.once("exit", (code) => r(code)));
    svc.child.kill("SIGTERM");
    expect(await within(exit, 3000, "exiting after SIGTERM")).toBe(0);
  });

  it("answers a stalled body with 408 and closes the connection within 16 s, serving others meanwhile", async () => {
    const { svc, api, host } = await service();
    const t0 = Date.now();
    const stalledData = raw(host, stalledUpsert(svc.apiKey));
    const stalledControl = raw(svc.controlUrl.slice("http://".length), `POST /indexes HTTP/1.1\r\nHost: x\r\nApi-Key: ${svc.apiKey}\r\nContent-Length: 500\r\n\r\n{"name":`);
    expect((await api("GET", "/indexes")).status).toBe(200);
    const message = "The request was not received in full in time; the connection is closed.";
    const data = await within(stalledData.closed, 18000, "closing a stalled connection");
    expect(data).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(data)).toEqual({ code: 4, message, details: [] });
    const control = await within(stalledControl.closed, 18000, "closing a stalled connection");
    expect(control).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(control)).toEqual({ status: 408, error: { code: "DEADLINE_EXCEEDED", message } });
    expect(Date.now() - t0).toBeLessThan(17000);
    expect((await api("GET", "/indexes")).body).toMatchObject({ indexes: [{ name: "a" }] });
  }, 25000);

  it("answers a request target that is not a URL with 400 in each plane's error shape", async () => {
    const { svc, host } = await service();
    const control = raw(svc.controlUrl.slice("http://".length), `GET http://[::1/indexes HTTP/1.1\r\nHost: x\r\nApi-Key: ${svc.apiKey}\r\nConnection: close\r\n\r\n`);
    const data = raw(host, `GET http://[::1/vectors/list HTTP/1.1\r\nHost: x\r\nApi-Key: ${svc.apiKey}\r\nConnection: close\r\n\r\n`);
    const c = await within(control.closed, 3000, "control answer");
    expect(c).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(c)).toEqual({ status: 400, error: { code: "INVALID_ARGUMENT", message: 'The request target "http://[::1/indexes" is not a valid URL path.' } });
    const d = await within(data.closed, 3000, "data answer");
    expect(d).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(d)).toEqual({ code: 3, message: 'The request target "http://[::1/vectors/list" is not a valid URL path.', details: [] });
  });

  it("a client still sending a too-large body reads the 413, not a reset connection", async () => {
    const { svc, host } = await service();
    for (let i = 0; i < 8; i++) {
      const data = await call(`http://${host}/vectors/upsert`, { method: "POST", apiKey: svc.apiKey, body: Buffer.alloc(11 * 1024 * 1024, 0x20) });
      expect({ status: data.status, body: data.body }).toEqual({
        status: 413,
        body: { code: 3, message: "Request body is larger than the limit of 10485760 bytes.", details: [] },
      });
      const control = await call(`${svc.controlUrl}/indexes`, { method: "POST", apiKey: svc.apiKey, body: Buffer.alloc(2 * 1024 * 1024, 0x20) });
      expect({ status: control.status, body: control.body }).toEqual({
        status: 413,
        body: { status: 413, error: { code: "INVALID_ARGUMENT", message: "Request body is larger than the limit of 1048576 bytes." } },
      });
    }
  });

  it("answers what is not HTTP, headers over 16 KiB and a body cut short in each plane's error shape, and keeps serving", async () => {
    const { svc, api, host } = await service();
    const control = svc.controlUrl.slice("http://".length);
    const key = `Api-Key: ${svc.apiKey}\r\n`;
    const big = (n: number) => `GET /indexes HTTP/1.1\r\nHost: x\r\n${key}X-Big: ${"a".repeat(n)}\r\n\r\n`;
    const cases: [string, string, number, string][] = [
      ["\u0000\u0001 hello\r\n\r\n", "\u0000\u0001 hello\r\n\r\n", 400, "The request is not valid HTTP/1.1 (HPE_INVALID_METHOD)."],
      [big(20000), big(1100000), 431, "The request line and header fields are larger than the limit of LIMIT in all."],
    ];
    for (const [toControl, toData, status, message] of cases) {
      const c = await within(raw(control, toControl).closed, 3000, "control answer");
      expect(c).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(bodyOf(c)).toEqual({ status, error: { code: "INVALID_ARGUMENT", message: message.replace("LIMIT", "16 KiB") } });
      const d = await within(raw(host, toData).closed, 3000, "data answer");
      expect(d).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(bodyOf(d)).toEqual({ code: 3, message: message.replace("LIMIT", "1 MiB"), details: [] });
    }
    const cut = raw(host, "");
    cut.socket.end(stalledUpsert(svc.apiKey));
    expect(bodyOf(await within(cut.closed, 3000, "data answer"))).toEqual({
      code: 3,
      message: "The request ended before all of its body arrived (fewer bytes than its Content-Length).",
      details: [],
    });
    expect((await api("GET", "/indexes")).status).toBe(200);
  });

  it("logs nothing when a client goes away before its body arrived", async () => {
    const logged: string[] = [];
    const dataDir = newDataDir();
    const svc = await startLocalService({ dataDir, apiKey: "k", log: (line) => logged.push(line) });
    try {
      const host = svc.controlUrl.slice("http://".length);
      for (const path of ["/indexes", "/collections"]) {
        const cut = raw(host, "");
        cut.socket.end(`POST ${path} HTTP/1.1\r\nHost: x\r\nApi-Key: k\r\nContent-Length: 100\r\n\r\n{"name":`);
        await within(cut.closed, 3000, "closing");
      }
      expect((await controlClient(svc.controlUrl, "k")("GET", "/indexes")).status).toBe(200);
      expect(logged).toEqual([]);
    } finally {
      await svc.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
