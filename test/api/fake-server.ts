// A small real HTTP server on a free loopback port, for fault behaviour the local service does not produce.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, n: number, body: string) => void;

export interface FakeServer {
  url: string;
  port: number;
  received: Received[];
  close(): Promise<void>;
}

export async function startFakeServer(handler: Handler): Promise<FakeServer> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    // The client's loopback identity check (src/api/loopback-identity.ts): a fake service is not the local service,
    // and says so as a foreign one would; it is not counted among the requests the test looks at.
    if (req.url?.startsWith("/_vecdb/identity")) {
      res.writeHead(404, { "Content-Type": "text/plain", "Content-Length": "9" });
      res.end("not found");
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      handler(req, res, received.length, body);
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A port that was free a moment ago and has nothing listening now. */
export async function closedPort(): Promise<number> {
  const s = await startFakeServer(() => {});
  await s.close();
  return s.port;
}
