// MCP over stdio, newline-delimited JSON-RPC, like the SDK's StdioServerTransport but for large messages: the SDK's
// ReadBuffer re-concatenates and re-scans the whole buffer on every 64 KB chunk (quadratic: a 30 MB upsert took 13 s)
// and silently closes the connection past 10 MB. Here a message's chunks are joined once, when its newline arrives.
import { constants } from "node:buffer";
import process from "node:process";
import type { Readable, Writable } from "node:stream";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/core";
import { PROTOCOL_VERSION_META_KEY, type JSONRPCMessage, type Transport } from "@modelcontextprotocol/server";
import { isOldEra, withOldEraErrorCodes } from "./legacy-errors.js";

// Past V8's longest string a line cannot even be decoded (toString throws): such a line is dropped as too large.
const MAX_MESSAGE_BYTES = Math.min(512 * 1024 * 1024, constants.MAX_STRING_LENGTH);

const invalidRequest = (id: string | number | null, why: string) => ({
  jsonrpc: "2.0" as const,
  id,
  error: { code: -32600, message: `Invalid Request: ${why}` },
});

export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false; // dropping the rest of an oversized message
  private started = false;
  // The connection's protocol version: the initialize result's, or the one the first request of a 2026-07-28 client
  // claims in its _meta (that era has no initialize).
  private negotiated: string | undefined;
  private initializeId: string | number | undefined;
  private readonly batchOf = new Map<string | number, { answers: JSONRPCMessage[]; waiting: Set<string | number> }>();

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
      // JSON-RPC: a message that is not JSON gets a Parse error with id null, or its sender may wait forever.
      this.answer({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the line is not valid JSON" } });
      return;
    }
    if (Array.isArray(json)) return this.handleBatch(json);
    const message = this.checked(json);
    if (message) this.deliver(message);
  }

  /** The message if it is JSON-RPC 2.0; otherwise answers Invalid Request (id null when it has none) and returns undefined. */
  private checked(json: unknown): JSONRPCMessage | undefined {
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (parsed.success) return parsed.data;
    this.unreadable(`not a JSON-RPC 2.0 message (${parsed.error.issues[0]?.message ?? "unknown shape"})`);
    const id = typeof json === "object" && json !== null ? (json as { id?: unknown }).id : undefined;
    this.answer(invalidRequest(typeof id === "string" || typeof id === "number" ? id : null, "not a JSON-RPC 2.0 message"));
    return undefined;
  }

  private deliver(message: JSONRPCMessage): void {
    if ("method" in message && message.method === "initialize" && "id" in message) this.initializeId = message.id;
    if (this.negotiated === undefined && "method" in message) {
      const claimed = (message.params?._meta as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION_META_KEY];
      if (typeof claimed === "string") this.negotiated = claimed;
    }
    this.onmessage?.(message);
  }

  /**
   * A JSON-RPC batch: protocol version 2025-03-26 requires them (2024-11-05 speaks plain JSON-RPC 2.0, which has them),
   * 2025-06-18 removed them. The answers to its requests go back as one array, once all of them are ready.
   */
  private handleBatch(items: unknown[]): void {
    if (items.length === 0) return this.answer(invalidRequest(null, "an empty batch"));
    const version = this.negotiated;
    if (version === undefined || version >= "2025-06-18") {
      const why =
        version === undefined
          ? "a batch before initialize (the initialize request may not be part of a batch)"
          : `a batch in a session at protocol version ${version}, which has no JSON-RPC batches; send each message on its own line`;
      return this.answer(invalidRequest(null, why));
    }
    const answers: JSONRPCMessage[] = [];
    const waiting = new Set<string | number>();
    const messages: JSONRPCMessage[] = [];
    for (const item of items) {
      const parsed = JSONRPCMessageSchema.safeParse(item);
      if (!parsed.success) {
        const id = typeof item === "object" && item !== null ? (item as { id?: unknown }).id : undefined;
        answers.push(invalidRequest(typeof id === "string" || typeof id === "number" ? id : null, "not a JSON-RPC 2.0 message") as JSONRPCMessage);
        continue;
      }
      const m = parsed.data;
      if ("method" in m && "id" in m) {
        if (waiting.has(m.id) || this.batchOf.has(m.id)) {
          answers.push(invalidRequest(m.id, `id ${JSON.stringify(m.id)} is already used by another request in flight`) as JSONRPCMessage);
          continue;
        }
        if (m.method === "initialize") {
          answers.push(invalidRequest(m.id, "initialize may not be part of a batch") as JSONRPCMessage);
          continue;
        }
        waiting.add(m.id);
      }
      messages.push(m);
    }
    const batch = { answers, waiting };
    for (const id of waiting) this.batchOf.set(id, batch);
    if (waiting.size === 0 && answers.length > 0) void this.write(answers);
    for (const m of messages) this.onmessage?.(m);
  }

  private unreadable(err: unknown): void {
    this.onerror?.(new Error(`an unreadable JSON-RPC message was dropped: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`));
  }

  /** An answer the SDK's types cannot express (id null). */
  private answer(message: object): void {
    void this.write(message);
  }

  private write(message: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(JSON.stringify(message) + "\n")) resolve();
      else this.stdout.once("drain", resolve);
    });
  }

  send(sent: JSONRPCMessage): Promise<void> {
    const message = isOldEra(this.negotiated) ? withOldEraErrorCodes(sent) : sent;
    if ("id" in message && !("method" in message)) {
      if (this.initializeId !== undefined && message.id === this.initializeId && "result" in message) {
        const v = (message.result as { protocolVersion?: unknown }).protocolVersion;
        if (typeof v === "string") this.negotiated = v;
        this.initializeId = undefined;
      }
      const id = message.id;
      const batch = id === undefined ? undefined : this.batchOf.get(id);
      if (batch && id !== undefined) {
        this.batchOf.delete(id);
        batch.waiting.delete(id);
        batch.answers.push(message);
        return batch.waiting.size === 0 ? this.write(batch.answers) : Promise.resolve();
      }
    }
    return this.write(message);
  }

  async close(): Promise<void> {
    this.stdin.off("data", this.onData);
    this.stdin.off("error", this.onStreamError);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.pending = [];
    this.onclose?.();
  }
}
