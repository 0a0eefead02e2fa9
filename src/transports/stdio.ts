// MCP over stdio, newline-delimited JSON-RPC, like the SDK's StdioServerTransport but for large messages: the SDK's
// ReadBuffer re-concatenates and re-scans the whole buffer on every 64 KB chunk (quadratic: a 30 MB upsert took 13 s)
// and silently closes the connection past 10 MB. Here a message's chunks are joined once, when its newline arrives.
import { constants } from "node:buffer";
import process from "node:process";
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

// Past V8's longest string a line cannot even be decoded (toString throws): such a line is dropped as too large.
export const MAX_MESSAGE_BYTES = Math.min(512 * 1024 * 1024, constants.MAX_STRING_LENGTH);

export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false; // dropping the rest of an oversized message
  private started = false;

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly maxMessageBytes = MAX_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error("LineStdioTransport already started");
    this.started = true;
    this.stdin.on("data", this.onData);
    this.stdin.on("error", this.onStreamError);
  }

  private readonly onStreamError = (error: Error) => this.onerror?.(error);

  private readonly onData = (chunk: Buffer) => {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline === -1) {
        this.keep(chunk.subarray(start));
        return;
      }
      const tail = chunk.subarray(start, newline);
      start = newline + 1;
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      const parts = this.pending;
      const size = this.pendingBytes + tail.length;
      this.pending = [];
      this.pendingBytes = 0;
      if (size > this.maxMessageBytes) this.tooLarge();
      else this.handleLine(parts.length === 0 ? tail : Buffer.concat([...parts, tail], size));
    }
  };

  private keep(part: Buffer): void {
    if (part.length === 0 || this.skipping) return;
    this.pendingBytes += part.length;
    if (this.pendingBytes > this.maxMessageBytes) {
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = true;
      this.tooLarge();
      return;
    }
    this.pending.push(part);
  }

  private tooLarge(): void {
    this.onerror?.(new Error(`a message larger than ${this.maxMessageBytes} bytes was dropped`));
  }

  private handleLine(line: Buffer): void {
    let json: unknown;
    try {
      const text = line.toString("utf8").replace(/\r$/, "");
      if (text.trim() === "") return;
      json = JSON.parse(text);
    } catch (err) {
      this.unreadable(err);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) {
      this.unreadable(`not a JSON-RPC 2.0 message (${parsed.error.issues[0]?.message ?? "unknown shape"})`);
      // A request with an id must get an answer (JSON-RPC: Invalid Request), or its sender waits for it forever.
      const id = typeof json === "object" && json !== null ? (json as { id?: unknown }).id : undefined;
      if ((typeof id === "string" || typeof id === "number") && (json as { method?: unknown }).method !== undefined) {
        void this.send({ jsonrpc: "2.0", id, error: { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 request" } });
      }
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private unreadable(err: unknown): void {
    this.onerror?.(new Error(`an unreadable JSON-RPC message was dropped: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`));
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(JSON.stringify(message) + "\n")) resolve();
      else this.stdout.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    this.stdin.off("data", this.onData);
    this.stdin.off("error", this.onStreamError);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.pending = [];
    this.onclose?.();
  }
}
