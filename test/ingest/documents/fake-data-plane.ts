// An in-memory data plane for the documents modules' tests: records by id (metadata only), the calls they make, in
// order, and a hook that can fail a call. Only the methods index_documents uses exist.
import type { IndexModel } from "../../../src/api/records.js";
import type { Service } from "../../../src/api/service.js";

type Op = { kind: "list" | "fetch" | "stats" | "upsert" | "delete" | "setMetadata"; ids: string[] };

export interface FakeDataPlane {
  service: Service;
  index: IndexModel;
  records: Map<string, Record<string, unknown>>;
  ops: Op[];
  /** Throw from this call to make it fail (after it is logged). */
  fail: (op: Op) => Error | undefined;
}

export function fakeDataPlane(initial: Record<string, Record<string, unknown>> = {}): FakeDataPlane {
  const records = new Map(Object.entries(initial));
  const index = { name: "docs", host: "fake.host", status: { ready: true, state: "Ready" } } as unknown as IndexModel;
  const fake: FakeDataPlane = { records, index, ops: [], fail: () => undefined, service: undefined as unknown as Service };
  const log = (op: Op) => {
    fake.ops.push(op);
    const err = fake.fail(op);
    if (err) throw err;
  };
  const data = {
    async listIds(_host: string, opts: { prefix?: string; limit?: number; paginationToken?: string }) {
      const all = [...records.keys()].filter((id) => id.startsWith(opts.prefix ?? "")).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
      const start = opts.paginationToken === undefined ? 0 : Number(opts.paginationToken);
      const ids = all.slice(start, start + (opts.limit ?? 100));
      log({ kind: "list", ids });
      return { ids, ...(start + ids.length < all.length ? { next: String(start + ids.length) } : {}) };
    },
    async fetchMany(_host: string, ids: string[]) {
      log({ kind: "fetch", ids });
      return Object.fromEntries(ids.filter((id) => records.has(id)).map((id) => [id, { id, metadata: records.get(id) }]));
    },
    async fetchMetadata(_host: string, ids: string[]) {
      log({ kind: "fetch", ids });
      return new Map(ids.filter((id) => records.has(id)).map((id) => [id, records.get(id)!]));
    },
    async describeIndexStats() {
      log({ kind: "stats", ids: [] });
      return { namespaces: records.size > 0 ? { "": { vectorCount: records.size } } : {} };
    },
    async upsertRecords(_host: string, _namespace: string, body: Buffer) {
      const lines = body.toString("utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>);
      log({ kind: "upsert", ids: lines.map((l) => String(l._id)) });
      for (const { _id, ...rest } of lines) records.set(String(_id), rest);
    },
    async deleteVectors(_host: string, body: { ids?: string[] }) {
      log({ kind: "delete", ids: body.ids ?? [] });
      for (const id of body.ids ?? []) records.delete(id);
    },
    async setMetadata(_host: string, body: { id: string; setMetadata: Record<string, unknown> }) {
      log({ kind: "setMetadata", ids: [body.id] });
      const old = records.get(body.id);
      if (old) records.set(body.id, { ...old, ...body.setMetadata });
    },
  };
  const hosts = { resolve: async () => index, forget: () => {} };
  fake.service = { data, hosts } as unknown as Service;
  return fake;
}
