import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, err, makeIndex, openEnv, type Client, type Env } from "../setup.js";

let env: Env;
let api: Client;
// 250 ids in one namespace, a few in another; byte order puts "Z" before "a" and "é" after "z".
const ids = [...Array.from({ length: 245 }, (_, i) => `doc-${String(i).padStart(3, "0")}`), "Zeta", "alpha", "zulu", "été", "doc#x"];

beforeAll(async () => {
  env = openEnv();
  api = client(env.store, makeIndex({ dimension: 1 }));
  for (let i = 0; i < ids.length; i += 100) {
    await api.post("/vectors/upsert", { vectors: ids.slice(i, i + 100).map((id) => ({ id, values: [1] })) });
  }
  await api.post("/vectors/upsert", { namespace: "other", vectors: [{ id: "o1", values: [1] }] });
});
afterAll(() => env.close());

const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe("list", () => {
  it("pages through every id in byte order, 100 by default", async () => {
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const res = await api.get("/vectors/list", token ? { paginationToken: token } : {});
      expect(res.status).toBe(200);
      expect(res.body.namespace).toBe("");
      expect(res.body.usage).toEqual({ readUnits: 1 });
      seen.push(...res.body.vectors.map((v: any) => v.id));
      token = res.body.pagination?.next;
      pages++;
      if (token) expect(res.body.vectors).toHaveLength(100);
    } while (token);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].sort(byteOrder));
  });

  it("filters by prefix, with a limit, and the last page has no pagination", async () => {
    const first = await api.get("/vectors/list", { prefix: "doc-24", limit: "3" });
    expect(first.body.vectors).toEqual([{ id: "doc-240" }, { id: "doc-241" }, { id: "doc-242" }]);
    expect(first.body.pagination.next).toEqual(expect.any(String));
    const second = await api.get("/vectors/list", { prefix: "doc-24", limit: "3", paginationToken: first.body.pagination.next });
    expect(second.body).toEqual({ vectors: [{ id: "doc-243" }, { id: "doc-244" }], namespace: "", usage: { readUnits: 1 } });
    const none = await api.get("/vectors/list", { prefix: "nothing" });
    expect(none.body).toEqual({ vectors: [], namespace: "", usage: { readUnits: 1 } });
  });

  it("exactly a page's worth has no next page", async () => {
    const res = await api.get("/vectors/list", { prefix: "doc-24", limit: "5" });
    expect(res.body.vectors).toHaveLength(5);
    expect(res.body.pagination).toBeUndefined();
  });

  it("lists one namespace", async () => {
    const res = await api.get("/vectors/list", { namespace: "other" });
    expect(res.body).toEqual({ vectors: [{ id: "o1" }], namespace: "other", usage: { readUnits: 1 } });
    const def = await api.get("/vectors/list", { namespace: "__default__", limit: "1" });
    expect(def.body.vectors).toEqual([{ id: "Zeta" }]);
  });

  it.each([
    [{ limit: "0" }, "limit must be from 1 to 100, got 0"],
    [{ limit: "101" }, "limit must be from 1 to 100, got 101"],
    [{ limit: "ten" }, "limit must be an integer from 1 to 100, got 'ten'"],
    [{ limit: "-1" }, "limit must be an integer from 1 to 100, got '-1'"],
    [{ paginationToken: "not a token!" }, "paginationToken is not a token this service issued"],
    [{ namespace: "n".repeat(513) }, "Namespace is 513 characters long; the maximum is 512"],
  ])("refuses %j", async (query, message) => {
    expect(await api.get("/vectors/list", query)).toEqual({ status: 400, body: err(3, message) });
  });
});
