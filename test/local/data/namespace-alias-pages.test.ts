// Listing namespace aliases page by page over real HTTP (API version 2026-07): the pagination token carries the
// listing's filters (prefix, target namespace), so the next page answers the same list whether the request repeats
// them or not; a repeated filter that disagrees with the token, a filter added mid-listing, a token from another
// listing or index, and a prefix the spec forbids are refused with the spec's reasons.
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalService, type LocalService } from "../../../src/local/index.js";
import { newDataDir } from "../../helpers/local-service.js";
import { specsAvailable, validateResponse } from "../../helpers/api-spec.js";
import { call, controlClient } from "../http.js";

const V7 = { "X-Pinecone-Api-Version": "2026-07" };
const ALIASES: [string, string][] = [
  ["alpha-1", "v1"],
  ["alpha-2", "v2"],
  ["alpha-3", "v1"],
  ["alpha-4", "v1"],
  ["alpha-5", "v2"],
  ["beta-1", "v1"],
  ["beta-2", "__default__"],
  ["gamma", "__default__"],
];
let dataDir: string;
let svc: LocalService;
let host: string;
let otherHost: string;

const get = (path: string, on = host) => call(`http://${on}${path}`, { apiKey: "k", headers: V7 });
const refusal = (reason: string, message: string) => ({
  status: 400,
  body: { code: 3, message, details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason, domain: "pinecone.io" }] },
});

interface Page { namespace_aliases: { name: string; target_namespace: string }[]; pagination?: { next: string }; total_count: number }

/** Every page of a listing: the first with `first`, the rest with `more` and the token. */
async function allPages(first: string, more = ""): Promise<Page[]> {
  const pages: Page[] = [];
  let answer = await get(`/namespace-aliases?${first}`);
  for (;;) {
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    if (specsAvailable) expect(validateResponse("db_data_2026-07.oas.yaml", "/namespace-aliases", "get", 200, answer.body)).toEqual([]);
    const page = answer.body as Page;
    pages.push(page);
    if (!page.pagination) return pages;
    answer = await get(`/namespace-aliases?paginationToken=${encodeURIComponent(page.pagination.next)}${more}`);
  }
}

const names = (pages: Page[]) => pages.map((p) => p.namespace_aliases.map((a) => a.name));

beforeAll(async () => {
  dataDir = newDataDir();
  svc = await startLocalService({ dataDir, apiKey: "k", log: () => undefined });
  const api = controlClient(svc.controlUrl, "k");
  const spec = { serverless: { cloud: "aws", region: "us-east-1" } };
  host = ((await api("POST", "/indexes", { name: "idx", dimension: 2, metric: "dotproduct", spec })).body as { host: string }).host;
  otherHost = ((await api("POST", "/indexes", { name: "other", dimension: 2, metric: "dotproduct", spec })).body as { host: string }).host;
  for (const [on, ns] of [[host, "v1"], [host, "v2"], [host, undefined], [otherHost, "v1"]] as const) {
    const upserted = await call(`http://${on}/vectors/upsert`, { method: "POST", apiKey: "k", headers: V7, body: { ...(ns && { namespace: ns }), vectors: [{ id: "a", values: [1, 0] }] } });
    expect(upserted.status).toBe(200);
  }
  for (const [on, [name, target]] of [...ALIASES.map((a) => [host, a] as const), [otherHost, ["alpha-1", "v1"]] as const]) {
    const created = await call(`http://${on}/namespace-aliases`, { method: "POST", apiKey: "k", headers: V7, body: { name, target_namespace: target } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
  }
});

afterAll(async () => {
  await svc?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("namespace alias list pages", () => {
  it("follow the token alone: it carries the prefix, and every page counts the same list", async () => {
    const pages = await allPages("prefix=alpha&limit=2", "&limit=2");
    expect(names(pages)).toEqual([["alpha-1", "alpha-2"], ["alpha-3", "alpha-4"], ["alpha-5"]]);
    expect(pages.map((p) => p.total_count)).toEqual([5, 5, 5]);
  });

  it("follow the token with the filters repeated as they were", async () => {
    expect(names(await allPages("prefix=alpha&target_namespace=v1&limit=1", "&prefix=alpha&target_namespace=v1&limit=1"))).toEqual([["alpha-1"], ["alpha-3"], ["alpha-4"]]);
    expect(names(await allPages("target_namespace=__default__&limit=1", "&target_namespace=__default__&limit=1"))).toEqual([["beta-2"], ["gamma"]]);
  });

  it("carry the target filter, and a later page may change only the limit", async () => {
    const first = (await get("/namespace-aliases?target_namespace=v2&limit=1")).body as Page;
    expect(first.namespace_aliases.map((a) => [a.name, a.target_namespace])).toEqual([["alpha-2", "v2"]]);
    const second = await get(`/namespace-aliases?paginationToken=${first.pagination!.next}&limit=100`);
    expect(second.body).toMatchObject({ namespace_aliases: [{ name: "alpha-5", target_namespace: "v2" }], total_count: 2 });
    expect((second.body as Page).pagination).toBeUndefined();
  });

  it("without filters list every alias, in name order", async () => {
    expect(names(await allPages("limit=3", "&limit=3"))).toEqual([["alpha-1", "alpha-2", "alpha-3"], ["alpha-4", "alpha-5", "beta-1"], ["beta-2", "gamma"]]);
  });

  it("refuse a repeated filter that disagrees with the token, or one added mid-listing", async () => {
    const byPrefix = ((await get("/namespace-aliases?prefix=alpha&limit=1")).body as Page).pagination!.next;
    const byTarget = ((await get("/namespace-aliases?target_namespace=v1&limit=1")).body as Page).pagination!.next;
    const unfiltered = ((await get("/namespace-aliases?limit=1")).body as Page).pagination!.next;
    const cases: [string, ReturnType<typeof refusal>][] = [
      [
        `paginationToken=${byPrefix}&prefix=beta`,
        refusal("LIST_INVALID_TOKEN_WITH_PREFIX", `prefix 'beta' disagrees with the listing this paginationToken continues (prefix 'alpha'); repeat the same prefix or leave it out.`),
      ],
      [
        `paginationToken=${byPrefix}&prefix=`,
        refusal("LIST_INVALID_TOKEN_WITH_PREFIX", `prefix '' disagrees with the listing this paginationToken continues (prefix 'alpha'); repeat the same prefix or leave it out.`),
      ],
      [
        `paginationToken=${unfiltered}&prefix=alpha`,
        refusal(
          "LIST_INVALID_TOKEN_WITH_NEW_PREFIX",
          `prefix 'alpha' was not part of the listing this paginationToken continues (it had no prefix); start a new listing without the token to filter by it.`,
        ),
      ],
      [
        `paginationToken=${byTarget}&target_namespace=v2`,
        refusal("LIST_INVALID_TOKEN_WITH_TARGET", `target_namespace 'v2' disagrees with the listing this paginationToken continues (target_namespace 'v1'); repeat the same target or leave it out.`),
      ],
      [
        `paginationToken=${byPrefix}&target_namespace=v1`,
        refusal(
          "LIST_INVALID_TOKEN_WITH_NEW_TARGET",
          `target_namespace 'v1' was not part of the listing this paginationToken continues (it had no target filter); start a new listing without the token to filter by it.`,
        ),
      ],
    ];
    for (const [query, expected] of cases) {
      const answer = await get(`/namespace-aliases?${query}`);
      expect(answer, query).toMatchObject(expected);
      if (specsAvailable) expect(validateResponse("db_data_2026-07.oas.yaml", "/namespace-aliases", "get", 400, answer.body)).toEqual([]);
    }
  });

  it("refuse a token from another index or another listing, or no token at all", async () => {
    const otherIndex = await get("/namespace-aliases?limit=1", otherHost); // one alias there: no next page
    expect((otherIndex.body as Page).pagination).toBeUndefined();
    const token = ((await get("/namespace-aliases?limit=1")).body as Page).pagination!.next;
    await call(`http://${host}/vectors/upsert`, { method: "POST", apiKey: "k", headers: V7, body: { namespace: "v1", vectors: [{ id: "b", values: [0, 1] }] } });
    const vectorsToken = ((await get("/vectors/list?namespace=v1&limit=1")).body as { pagination: { next: string } }).pagination.next;
    const invalid = refusal("INVALID_PAGINATION_TOKEN", "paginationToken is malformed or from another listing than the namespace aliases of index other.");
    expect(await get(`/namespace-aliases?paginationToken=${token}`, otherHost)).toMatchObject(invalid);
    const here = refusal("INVALID_PAGINATION_TOKEN", "paginationToken is malformed or from another listing than the namespace aliases of index idx.");
    for (const bad of [vectorsToken, "not-a-token", Buffer.from("alpha-1").toString("base64url"), "%%%"]) {
      expect(await get(`/namespace-aliases?paginationToken=${encodeURIComponent(bad)}`), bad).toMatchObject(here);
    }
  });

  it("refuse a prefix the spec forbids", async () => {
    expect(await get(`/namespace-aliases?prefix=${"p".repeat(513)}`)).toMatchObject(refusal("PREFIX_TOO_LONG", "prefix is 513 characters long; the maximum is 512."));
    expect(await get("/namespace-aliases?prefix=a%00b")).toMatchObject(refusal("PREFIX_MUST_NOT_CONTAIN_NULL_CHARACTER", "prefix must not contain the NUL character."));
    expect(await get("/namespace-aliases?prefix=%C3%A9t%C3%A9")).toMatchObject(refusal("PREFIX_MUST_BE_ASCII", "prefix 'été' must be ASCII."));
  });
});
