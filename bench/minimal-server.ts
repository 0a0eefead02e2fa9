// The ceiling of any JSON-speaking service on this machine: a Node HTTP server that only reads each upsert body,
// JSON.parses it and counts its ids. The ingestion benchmark sends it the same loop as the local service.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export async function startMinimalServer(): Promise<{ host: string; received: () => number; close: () => Promise<void> }> {
  let received = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { vectors: { id: string }[] };
      const ids = new Set(body.vectors.map((v) => v.id));
      received += ids.size;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ upsertedCount: ids.size }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
