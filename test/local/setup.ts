// Opens a real lmdb environment in a temporary directory and calls handleDataPlane with real request buffers.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { open, type RootDatabase } from "lmdb";
import { handleDataPlane, type DataPlaneIndex, type DataPlaneResponse } from "../../src/local/data/handlers.js";
import { VectorStore } from "../../src/local/search/engine.js";

export interface Env {
  dir: string;
  root: RootDatabase;
  store: VectorStore;
  close(): Promise<void>;
}

export function openEnv(): Env {
  const dir = mkdtempSync(join(tmpdir(), "vecdb-l2-"));
  const root = open({ path: join(dir, "data.mdb"), maxDbs: 16 });
  const store = new VectorStore(root);
  return {
    dir,
    root,
    store,
    async close() {
      await this.root.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function makeIndex(over: Partial<DataPlaneIndex> = {}): DataPlaneIndex {
  return { name: "idx", space: "i:test", dimension: 3, metric: "cosine", vectorType: "dense", ...over };
}

/** A client bound to one index: post(path, body) and get(path, query) return {status, body} as JSON-parsed. */
export function client(store: VectorStore, index: DataPlaneIndex) {
  const call = async (method: string, path: string, body: Buffer, query = new URLSearchParams()): Promise<DataPlaneResponse & { body: any }> => {
    const res = await handleDataPlane({ method, pathname: path, query, body }, index, store);
    // Round-trip through JSON as the HTTP server does, so tests see exactly what a user would.
    return { status: res.status, body: JSON.parse(JSON.stringify(res.body)) };
  };
  return {
    call,
    post: (path: string, body: unknown) => call("POST", path, Buffer.from(typeof body === "string" ? body : JSON.stringify(body))),
    get: (path: string, query: Record<string, string | string[]> = {}) => {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) for (const x of Array.isArray(v) ? v : [v]) q.append(k, x);
      return call("GET", path, Buffer.alloc(0), q);
    },
  };
}

export type Client = ReturnType<typeof client>;

export function err(code: number, message: string) {
  return { code, message, details: [] };
}
