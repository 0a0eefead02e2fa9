// A small real OpenAI-compatible embeddings server for tests (GET /v1/models, POST /v1/embeddings), with
// deterministic vectors: each word adds 1 to dimension (hash(word) mod DIM), and the vector is normalised, so texts
// that share words are close. It can be told to be slow, to fail, or be closed (down).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export const TEST_MODEL = "test-embed-16";
export const TEST_DIM = 16;

export function testVector(text: string): number[] {
  const v = new Array<number>(TEST_DIM).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let h = 2166136261;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619) >>> 0;
    v[h % TEST_DIM] += 1;
  }
  v[TEST_DIM - 1] += 0.01; // never all zeros
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

export interface EmbeddingsServer {
  url: string; // …/v1
  requests: { path: string; auth?: string; inputs?: number }[];
  delayMs: number;
  failNext: number; // the next N embedding calls answer 500
  close(): Promise<void>;
}

export async function startEmbeddingsServer(opts: { models?: string[] } = {}): Promise<EmbeddingsServer> {
  const models = opts.models ?? [TEST_MODEL, "chat-model-not-embeddings"];
  const state = { requests: [] as EmbeddingsServer["requests"], delayMs: 0, failNext: 0 };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => {
      setTimeout(() => {
        const send = (status: number, value: unknown) => {
          res.writeHead(status, { "content-type": "application/json" });
          res.end(JSON.stringify(value));
        };
        const auth = req.headers.authorization;
        if (req.method === "GET" && req.url === "/v1/models") {
          state.requests.push({ path: "/v1/models", auth });
          return send(200, { object: "list", data: models.map((id) => ({ id, object: "model" })) });
        }
        if (req.method === "POST" && req.url === "/v1/embeddings") {
          const { model, input } = JSON.parse(body) as { model: string; input: string[] | string };
          const inputs = Array.isArray(input) ? input : [input];
          state.requests.push({ path: "/v1/embeddings", auth, inputs: inputs.length });
          if (state.failNext > 0) {
            state.failNext--;
            return send(500, { error: { message: "model runner crashed" } });
          }
          if (model !== TEST_MODEL) return send(400, { error: { message: `model ${model} does not support embeddings` } });
          const data = inputs.map((text, index) => ({ object: "embedding", index, embedding: testVector(text) }));
          const tokens = inputs.reduce((n, t) => n + (t.match(/\S+/g)?.length ?? 0), 0);
          return send(200, { object: "list", model, data, usage: { prompt_tokens: tokens, total_tokens: tokens } });
        }
        send(404, { error: { message: "not found" } });
      }, state.delayMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as AddressInfo).port;
  const handle: EmbeddingsServer = {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return state.requests;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(ms: number) {
      state.delayMs = ms;
    },
    get failNext() {
      return state.failNext;
    },
    set failNext(n: number) {
      state.failNext = n;
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
  return handle;
}
