// Connections before any request: how many one address may hold, and the status a malformed or slow request gets.
// Setting a `clientError` handler replaces Node's own mapping (which answers 431 and 408), so it is redone here.
import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { Logger } from "../../log.js";

function rawReply(socket: Socket, status: string, extra = ""): void {
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: status }, id: null });
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`,
  );
}

/** Node's error codes for a request it could not read, and the status each gets. */
function statusOf(code: string | undefined): string {
  if (code === "HPE_HEADER_OVERFLOW") return "431 Request Header Fields Too Large";
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return "408 Request Timeout";
  if (code === "HPE_CHUNK_EXTENSIONS_OVERFLOW") return "413 Payload Too Large";
  return "400 Bad Request";
}

export function limitConnections(http: Server, opts: { maxPerAddress: number; log: Logger }): void {
  const open = new Map<string, number>();
  http.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "?";
    const n = (open.get(address) ?? 0) + 1;
    if (n > opts.maxPerAddress) {
      opts.log.info(`refused a connection from ${address}: it holds ${opts.maxPerAddress} already`);
      rawReply(socket, "503 Service Unavailable", "Retry-After: 5\r\n");
      socket.destroySoon();
      return;
    }
    open.set(address, n);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });

  http.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === "ECONNRESET" || !socket.writable) {
      opts.log.debug(`connection from ${socket.remoteAddress} dropped: ${err.code ?? err.message}`);
      return void socket.destroy();
    }
    const status = statusOf(err.code);
    opts.log.info(`refused a request from ${socket.remoteAddress}: ${status} (${err.code ?? err.message})`);
    rawReply(socket, status);
  });
}
