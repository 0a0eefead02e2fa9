// Every request copy_index sends to the target ("other", reached through proxies that keep the bodies) validates
// against the published API specs: the index it creates (POST /indexes, POST /indexes/create-for-model), the vector
// upserts (records passed on as the source wrote them) and the text upserts (NDJSON, one record a line).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { schemaValidator, specsAvailable, specsMissingReason } from "../../helpers/api-spec.js";
import { startServiceProcess, type RunningService } from "../../helpers/local-service.js";
import { startMcp, type McpSession } from "../../helpers/mcp-client.js";
import { api, createIndex, dataUrl, randomVector, serverless, startProxy, type Proxy } from "../../e2e/support.js";

let source: RunningService;
let target: RunningService;
let mcp: McpSession;
const proxies: Proxy[] = [];
const sent: { method: string; path: string; body: Buffer }[] = [];

describe.skipIf(!specsAvailable)(`copy_index requests against the specs${specsAvailable ? "" : ` (skipped: ${specsMissingReason})`}`, () => {
  beforeAll(async () => {
    [source, target] = await Promise.all([startServiceProcess(), startServiceProcess()]);
    const from = await createIndex(source, { name: "mixed", dimension: 4, metric: "dotproduct", spec: serverless });
    const vectors = Array.from({ length: 230 }, (_, i) => ({
      id: `m-${i}`,
      values: randomVector(4, i + 1),
      ...(i % 2 === 0 && { sparseValues: { indices: [i, i + 1], values: [0.5, 0.25] } }),
      metadata: { text: `note number ${i} about ${i % 3 === 0 ? "ferries" : "bread"}`, n: i, tags: ["x"] },
    }));
    for (const ns of ["", "two"]) expect((await api(source, "POST", `${dataUrl(from.host)}/vectors/upsert`, { vectors, namespace: ns })).status).toBe(200);
    const keep = (req: { method?: string; url?: string }, body: Buffer) => void sent.push({ method: req.method ?? "", path: req.url ?? "", body });
    const plain = await createIndex(target, { name: "mixed", dimension: 4, metric: "dotproduct", spec: serverless });
    const made = await api(target, "POST", "/indexes/create-for-model", { name: "words", cloud: "aws", region: "us-east-1", embed: { model: "local-bm25", field_map: { text: "text" } } });
    expect(made.status).toBe(201);
    const plainData = await startProxy({ target: `http://${plain.host}`, onBody: keep });
    const wordsData = await startProxy({ target: `http://${made.body.host}`, onBody: keep });
    const control = await startProxy({ target: target.controlUrl, onBody: keep, rewrite: (body) => body.split(plain.host).join(plainData.host).split(made.body.host).join(wordsData.host) });
    proxies.push(plainData, wordsData, control);
    mcp = await startMcp({
      env: { PINECONE_API_KEY: source.apiKey, PINECONE_CONTROLLER_HOST: source.controlUrl, VECDB_OTHER_API_KEY: target.apiKey, VECDB_OTHER_HOST: control.url, VECDB_DATA_DIR: mkdtempSync(join(tmpdir(), "vecdb-copy-spec-")) },
    });
  });

  afterAll(async () => {
    await mcp?.close();
    for (const p of proxies) await p.close();
    await source?.stop();
    await target?.stop();
  });

  test("the created indexes, the vector upserts and the text upserts are what the specs describe", async () => {
    for (const args of [
      { to: "other", index: "mixed" },
      { to: "other", index: "mixed", targetIndex: "words" },
      { to: "other", index: "mixed", targetIndex: "mixed-copy", createTarget: true },
      { to: "other", index: "mixed", targetIndex: "words-dense", createTarget: true, targetModel: "local-bm25" },
    ]) {
      const copy = await mcp.call("copy_index", args);
      expect(copy.isError, copy.text).toBe(false);
      expect(copy.structured!.complete).toBe(true);
    }
    const check = (file: "db_data_2026-04.oas.yaml" | "db_control_2026-04.oas.yaml", schema: string, value: unknown, what: string) => {
      const validate = schemaValidator(file, schema);
      expect(validate(value), `${what}: ${JSON.stringify(validate.errors)}`).toBe(true);
    };
    const upserts = sent.filter((r) => r.path === "/vectors/upsert");
    const textUpserts = sent.filter((r) => /^\/records\/namespaces\/[^/]+\/upsert$/.test(r.path));
    const creates = sent.filter((r) => r.method === "POST" && r.path === "/indexes");
    const modelCreates = sent.filter((r) => r.method === "POST" && r.path === "/indexes/create-for-model");
    expect([upserts.length, textUpserts.length, creates.length, modelCreates.length]).toEqual([6, 6, 1, 1]);
    for (const u of upserts) check("db_data_2026-04.oas.yaml", "UpsertRequest", JSON.parse(u.body.toString()), "an upsert");
    for (const u of textUpserts) {
      for (const line of u.body.toString().split("\n").filter(Boolean)) check("db_data_2026-04.oas.yaml", "UpsertRecord", JSON.parse(line), "a text record");
    }
    check("db_control_2026-04.oas.yaml", "CreateIndexRequest", JSON.parse(creates[0].body.toString()), "the created index");
    check("db_control_2026-04.oas.yaml", "CreateIndexForModelRequest", JSON.parse(modelCreates[0].body.toString()), "the created index for a model");
    expect(JSON.parse(creates[0].body.toString())).toEqual({ name: "mixed-copy", dimension: 4, metric: "dotproduct", spec: { serverless: { cloud: "aws", region: "us-east-1" } } });
  });
});
