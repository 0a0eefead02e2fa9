// The user's own embeddings server, spoken to through the OpenAI-compatible API that Ollama, LM Studio, llama.cpp's
// server, vLLM and TEI all offer: GET {base}/models, POST {base}/embeddings. Failures become ModelError (the
// inference routes answer them in the API's error shape); 429, 5xx and dropped connections are retried twice.
import { setTimeout as sleep } from "node:timers/promises";
import { ModelError } from "./errors.js";

export interface EmbeddingsServerOptions {
  url: string; // e.g. http://127.0.0.1:11434/v1
  key?: string;
  timeoutMs?: number; // per attempt; default 30 s
  retries?: number; // default 2
}

export class EmbeddingsServer {
  readonly base: string;
  private readonly timeoutMs: number;
  private readonly retries: number;

  constructor(private readonly opts: EmbeddingsServerOptions) {
    this.base = opts.url.replace(/\/+$/, "");
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.retries = opts.retries ?? 2;
  }

  /** The ids the server lists. */
  async models(): Promise<string[]> {
    const body = (await this.call("GET", "/models")) as { data?: { id?: unknown }[] };
    if (!Array.isArray(body?.data)) throw this.badAnswer("GET /models", "no data list");
    return body.data.map((m) => m.id).filter((id): id is string => typeof id === "string" && id !== "");
  }

  /** One vector per input, in order, and the tokens the server counted (0 when it does not say). */
  async embed(model: string, inputs: string[], dimensions?: number): Promise<{ vectors: number[][]; tokens: number }> {
    const request = { model, input: inputs, encoding_format: "float", ...(dimensions !== undefined ? { dimensions } : {}) };
    const body = (await this.call("POST", "/embeddings", request)) as {
      data?: { embedding?: unknown; index?: unknown }[];
      usage?: { prompt_tokens?: unknown; total_tokens?: unknown };
    };
    if (!Array.isArray(body?.data) || body.data.length !== inputs.length) {
      throw this.badAnswer("POST /embeddings", `expected ${inputs.length} embeddings, got ${Array.isArray(body?.data) ? body.data.length : "none"}`);
    }
    const vectors: number[][] = new Array(inputs.length);
    body.data.forEach((d, i) => {
      const at = typeof d.index === "number" ? d.index : i;
      const v = d.embedding;
      if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === "number" && Number.isFinite(x))) {
        throw this.badAnswer("POST /embeddings", `embedding ${at} is not a list of finite numbers`);
      }
      vectors[at] = v as number[];
    });
    if (vectors.some((v) => v === undefined)) throw this.badAnswer("POST /embeddings", "the embeddings' index fields do not cover the inputs");
    const t = body.usage?.prompt_tokens ?? body.usage?.total_tokens;
    return { vectors, tokens: typeof t === "number" ? t : 0 };
  }

  /** The key never appears in a message, even when the server echoes it. */
  private redact(text: string): string {
    const key = this.opts.key;
    return key && key.length >= 4 ? text.split(key).join("[redacted]") : text;
  }

  private badAnswer(call: string, detail: string): ModelError {
    return new ModelError(502, "UNAVAILABLE", `The embeddings server at ${this.base} gave an unexpected answer to ${call}: ${detail}.`);
  }

  private async call(method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (this.opts.key) headers.authorization = `Bearer ${this.opts.key}`;
    let last: ModelError | undefined;
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      if (attempt > 0) await sleep(200 * 2 ** (attempt - 1));
      let res: Response;
      try {
        res = await fetch(this.base + path, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(this.timeoutMs),
          redirect: "manual", // the key goes to the configured server only, never where a redirect points
        });
      } catch (e) {
        const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).name;
        const why = cause === "TimeoutError" ? `did not answer within ${this.timeoutMs} ms` : cause === "ECONNREFUSED" ? "refused the connection (is it running?)" : `could not be reached (${cause})`;
        last = new ModelError(503, "UNAVAILABLE", `The embeddings server at ${this.base} ${why}.`);
        continue;
      }
      const text = await res.text().catch(() => "");
      if (res.ok) {
        try {
          return JSON.parse(text);
        } catch {
          throw this.badAnswer(`${method} ${path}`, "the body is not JSON");
        }
      }
      if (res.status >= 300 && res.status < 400) {
        throw new ModelError(400, "FAILED_PRECONDITION", `The embeddings server at ${this.base} answered ${method} ${path} with a redirect (HTTP ${res.status}), which is not followed: set --embed-url to the address it serves on.`);
      }
      const message = this.redact(serverMessage(text) ?? res.statusText);
      // Refused credentials are the local service's setting, not a passing fault: an answer no retry changes.
      if (res.status === 401 || res.status === 403) {
        throw new ModelError(400, "FAILED_PRECONDITION", `The embeddings server at ${this.base} refused the key (HTTP ${res.status}: ${message}); set VECDB_EMBED_KEY to a key it accepts and restart the local service.`);
      }
      const error = new ModelError(
        res.status === 404 || res.status === 400 ? 400 : res.status === 429 ? 429 : 502,
        res.status === 429 ? "RESOURCE_EXHAUSTED" : res.status === 404 || res.status === 400 ? "INVALID_ARGUMENT" : "UNAVAILABLE",
        `The embeddings server at ${this.base} answered ${method} ${path} with HTTP ${res.status}: ${message}`,
      );
      if (res.status !== 429 && res.status < 500) throw error;
      last = error;
    }
    throw last!;
  }
}

function serverMessage(text: string): string | undefined {
  try {
    const j = JSON.parse(text) as { error?: unknown; message?: unknown };
    const e = j.error;
    if (typeof e === "string") return e;
    if (e && typeof e === "object" && typeof (e as { message?: unknown }).message === "string") return (e as { message: string }).message;
    if (typeof j.message === "string") return j.message;
  } catch {
    // not JSON
  }
  return text.trim() === "" ? undefined : text.trim().slice(0, 300);
}
