// Indexes under API version 2026-07: created from `deployment` + `schema`, described in the 2026-07 shape (checked
// against the published spec when it is on the machine), kept across a restart, and every schema rule refused with
// its status and message while nothing changes. Indexes of one version described under the other.
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalService, type LocalService } from "../../../src/local/index.js";
import { newDataDir } from "../../helpers/local-service.js";
import { specsAvailable, validateResponse } from "../../helpers/api-spec.js";
import { call, controlClient, controlError, type Answer } from "../http.js";

const V7 = { "X-Pinecone-Api-Version": "2026-07" };
const V4 = { "X-Pinecone-Api-Version": "2026-04" };
const CONTROL_2026_07 = "db_control_2026-07.oas.yaml" as const;

let dataDir: string;
let svc: LocalService;
let api: ReturnType<typeof controlClient>;
const v7 = (method: string, path: string, body?: unknown) => api(method, path, body, V7);
const v4 = (method: string, path: string, body?: unknown) => api(method, path, body, V4);

function validIn2026_07(path: string, method: string, status: number, answer: Answer): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  if (specsAvailable) expect(validateResponse(CONTROL_2026_07, path, method, status, answer.body)).toEqual([]);
}

const articles = {
  name: "articles",
  schema: {
    fields: {
      embedding: { type: "dense_vector", dimension: 4, metric: "dotproduct" },
      keywords: { type: "sparse_vector", description: "learned sparse terms" },
      title: { type: "string", full_text_search: {} },
      body: { type: "string", full_text_search: { language: "german", stemming: true, stop_words: true } },
      sku: { type: "string", full_text_search: { ngram: { min_gram: 2, max_gram: 3 } } },
    },
  },
  tags: { team: "search" },
};

const articlesDescribed = {
  name: "articles",
  host: expect.stringMatching(/^127\.0\.0\.1:\d+$/),
  status: { ready: true, state: "Ready" },
  deployment: { deployment_type: "managed", cloud: "aws", region: "us-east-1" },
  read_capacity: { mode: "OnDemand", status: { state: "Ready" } },
  schema: {
    fields: {
      embedding: { type: "dense_vector", dimension: 4, metric: "dotproduct", description: null },
      keywords: { type: "sparse_vector", description: "learned sparse terms" },
      title: { type: "string", full_text_search: { language: "en", stemming: false, stop_words: false }, description: null },
      body: { type: "string", full_text_search: { language: "de", stemming: true, stop_words: true }, description: null },
      sku: {
        type: "string",
        full_text_search: { language: "en", stemming: false, stop_words: false, ngram: { min_gram: 2, max_gram: 3, prefix_only: false } },
        description: null,
      },
    },
  },
  tags: { team: "search" },
  deletion_protection: "disabled",
};

async function inventory(): Promise<unknown> {
  return (await v7("GET", "/indexes")).body;
}

/** The exact refusal, in the control-plane error shape, and the inventory unchanged. */
async function refused(body: unknown, status: number, code: string, message: string) {
  const before = await inventory();
  const answer = await v7("POST", "/indexes", body);
  expect({ status: answer.status, body: answer.body }).toEqual({ status, body: controlError(status, code, message) });
  expect(await inventory()).toEqual(before);
}

beforeAll(async () => {
  dataDir = newDataDir();
  svc = await startLocalService({ dataDir, apiKey: "k", log: () => undefined });
  api = controlClient(svc.controlUrl, "k");
});

afterAll(async () => {
  await svc?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("creating and describing a document index under 2026-07", () => {
  it("creates it from its schema (201) and describes it in the 2026-07 shape, with the analysis defaults filled in", async () => {
    const created = await v7("POST", "/indexes", articles);
    validIn2026_07("/indexes", "post", 201, created);
    expect(created.body).toEqual(articlesDescribed);
    const described = await v7("GET", "/indexes/articles");
    validIn2026_07("/indexes/{index_name}", "get", 200, described);
    expect(described.body).toEqual(articlesDescribed);
    const listed = await v7("GET", "/indexes");
    validIn2026_07("/indexes", "get", 200, listed);
    expect((listed.body as { indexes: unknown[] }).indexes).toContainEqual(articlesDescribed);
  });

  it("generates a name when none is given, and defaults the deployment to managed aws us-east-1", async () => {
    const created = await v7("POST", "/indexes", { schema: { fields: { text: { type: "string", full_text_search: { language: "fr" } } } } });
    validIn2026_07("/indexes", "post", 201, created);
    const body = created.body as { name: string; deployment: unknown };
    expect(body.name).toMatch(/^index-[0-9a-f]{10}$/);
    expect(body.deployment).toEqual({ deployment_type: "managed", cloud: "aws", region: "us-east-1" });
    expect((await v7("DELETE", `/indexes/${body.name}`)).status).toBe(202);
  });

  it("takes a byoc deployment with dedicated read capacity, and a managed one in another cloud", async () => {
    const byoc = await v7("POST", "/indexes", {
      name: "on-prem",
      deployment: { deployment_type: "byoc", environment: "aws-us-east-1-b921" },
      read_capacity: { mode: "Dedicated", dedicated: { node_type: "t1", scaling: "Manual", manual: { replicas: 1, shards: 1 } } },
      schema: { fields: { v: { type: "dense_vector", dimension: 2, metric: "cosine" } } },
    });
    validIn2026_07("/indexes", "post", 201, byoc);
    expect(byoc.body).toMatchObject({
      deployment: { deployment_type: "byoc", environment: "aws-us-east-1-b921" },
      read_capacity: { mode: "Dedicated", dedicated: { node_type: "t1", scaling: "Manual", manual: { replicas: 1, shards: 1 } }, status: { state: "Ready", current_replicas: 1, current_shards: 1 } },
    });
    const gcp = await v7("POST", "/indexes", {
      name: "hybrid",
      deployment: { deployment_type: "managed", cloud: "gcp", region: "us-central1" },
      schema: { fields: { dense: { type: "dense_vector", dimension: 3, metric: "dotproduct" }, sparse: { type: "sparse_vector" } } },
    });
    validIn2026_07("/indexes", "post", 201, gcp);
    expect((gcp.body as { deployment: unknown }).deployment).toEqual({ deployment_type: "managed", cloud: "gcp", region: "us-central1" });
  });

  it("keeps the schema across a restart of the service", async () => {
    await svc.close();
    svc = await startLocalService({ dataDir, apiKey: "k", log: () => undefined });
    api = controlClient(svc.controlUrl, "k");
    expect((await v7("GET", "/indexes/articles")).body).toEqual(articlesDescribed);
  });
});

describe("classic indexes across the two versions", () => {
  it("a reserved _values schema under 2026-07 is a classic dense index: 2026-04 describes it with dimension and metric", async () => {
    const created = await v7("POST", "/indexes", { name: "classic", schema: { fields: { _values: { type: "dense_vector", dimension: 3, metric: "euclidean" } } } });
    validIn2026_07("/indexes", "post", 201, created);
    expect((created.body as { schema: unknown }).schema).toEqual({
      fields: { _values: { type: "dense_vector", dimension: 3, metric: "euclidean" }, _sparse_values: { type: "sparse_vector" } },
    });
    expect((await v4("GET", "/indexes/classic")).body).toMatchObject({
      name: "classic",
      vector_type: "dense",
      dimension: 3,
      metric: "euclidean",
      spec: { serverless: { cloud: "aws", region: "us-east-1" } },
    });
  });

  it("a reserved _sparse_values schema is a classic sparse index", async () => {
    const created = await v7("POST", "/indexes", { name: "classic-sparse", schema: { fields: { _sparse_values: { type: "sparse_vector" } } } });
    validIn2026_07("/indexes", "post", 201, created);
    expect((created.body as { schema: unknown }).schema).toEqual({ fields: { _sparse_values: { type: "sparse_vector" } } });
    expect((await v4("GET", "/indexes/classic-sparse")).body).toMatchObject({ vector_type: "sparse", metric: "dotproduct" });
  });

  it("an index made with dimension and metric under 2026-04 is described under 2026-07 with _values, _sparse_values and its filterable fields", async () => {
    const made = await v4("POST", "/indexes", {
      name: "legacy",
      dimension: 5,
      metric: "cosine",
      spec: { serverless: { cloud: "azure", region: "eastus2", schema: { fields: { genre: { filterable: true } } } } },
    });
    expect(made.status).toBe(201);
    const described = await v7("GET", "/indexes/legacy");
    validIn2026_07("/indexes/{index_name}", "get", 200, described);
    expect(described.body).toEqual({
      name: "legacy",
      host: expect.stringMatching(/:\d+$/),
      status: { ready: true, state: "Ready" },
      deployment: { deployment_type: "managed", cloud: "azure", region: "eastus2" },
      read_capacity: { mode: "OnDemand", status: { state: "Ready" } },
      schema: {
        fields: {
          _values: { type: "dense_vector", dimension: 5, metric: "cosine" },
          _sparse_values: { type: "sparse_vector" },
          genre: { filterable: true },
        },
      },
      tags: null,
      deletion_protection: "disabled",
    });
  });

  it("a pod index made under 2026-04 is described with a pod deployment and no read capacity", async () => {
    const made = await v4("POST", "/indexes", {
      name: "pods",
      dimension: 2,
      spec: { pod: { environment: "us-east1-gcp", pod_type: "s1.x2", replicas: 2, metadata_config: { indexed: ["year"] } } },
    });
    expect(made.status).toBe(201);
    const described = await v7("GET", "/indexes/pods");
    validIn2026_07("/indexes/{index_name}", "get", 200, described);
    expect(described.body).toMatchObject({
      deployment: { deployment_type: "pod", environment: "us-east1-gcp", pod_type: "s1.x2", replicas: 2, shards: 1 },
      schema: { fields: { _values: { type: "dense_vector", dimension: 2, metric: "cosine" }, _sparse_values: { type: "sparse_vector" }, year: { filterable: true } } },
    });
    expect(described.body).not.toHaveProperty("read_capacity");
  });

  it("an index made for a model is described with a semantic_text field; its read capacity and metadata schema are kept, unknown keys refused", async () => {
    const made = await v7("POST", "/indexes/create-for-model", {
      name: "notes",
      cloud: "gcp",
      region: "us-central1",
      embed: { model: "local-bm25", field_map: { text: "body" } },
      read_capacity: { mode: "Dedicated", dedicated: { node_type: "b1", scaling: "Manual", manual: { replicas: 1, shards: 1 } } },
      schema: { fields: { genre: { filterable: true } } },
    });
    validIn2026_07("/indexes/create-for-model", "post", 201, made);
    expect(made.body).toMatchObject({
      deployment: { deployment_type: "managed", cloud: "gcp", region: "us-central1" },
      read_capacity: { mode: "Dedicated", dedicated: { node_type: "b1" } },
      schema: {
        fields: {
          body: {
            type: "semantic_text",
            model: "local-bm25",
            dimension: null,
            metric: "dotproduct",
            write_parameters: { input_type: "passage", truncate: "END" },
            read_parameters: { input_type: "query", truncate: "END" },
            description: null,
          },
        },
      },
    });
    expect((await v4("GET", "/indexes/notes")).body).toMatchObject({ spec: { serverless: { schema: { fields: { genre: { filterable: true } } } } } });
    const refused = await v7("POST", "/indexes/create-for-model", { name: "x", cloud: "aws", region: "us-east-1", embed: { model: "local-bm25", field_map: { text: "t" } }, dimension: 3 });
    expect(refused.body).toEqual(
      controlError(400, "INVALID_ARGUMENT", "dimension is not a setting the local service knows, so it is refused rather than ignored; known: name, cloud, region, embed, deletion_protection, tags, schema, read_capacity."),
    );
  });

  it("without a version header the service answers as before (the 2026-04 shape)", async () => {
    const answer = await call(`${svc.controlUrl}/indexes/legacy`, { apiKey: "k" });
    expect(answer.body).toMatchObject({ name: "legacy", dimension: 5, metric: "cosine", vector_type: "dense" });
    expect(answer.body).not.toHaveProperty("schema");
  });
});

describe("schema rules under 2026-07 (each refused, nothing created)", () => {
  const dense = { type: "dense_vector", dimension: 2, metric: "cosine" };
  const text = { type: "string", full_text_search: {} };
  const unknownTop =
    " (with API version 2026-07 an index is made from `schema` and `deployment`: dimension and metric go in a dense_vector field, vector_type becomes a sparse_vector field, spec becomes deployment)";
  const expectedTop = "expected one of `name`, `deployment`, `schema`, `cmek_id`, `read_capacity`, `tags`, `deletion_protection`";

  it.each([
    ["dimension", { name: "x", dimension: 2, schema: { fields: { v: dense } } }],
    ["spec", { name: "x", spec: { serverless: { cloud: "aws", region: "us-east-1" } }, schema: { fields: { v: dense } } }],
    ["metric", { name: "x", metric: "cosine", schema: { fields: { v: dense } } }],
  ])("the 2026-04 field %s is refused as an unknown field (422)", async (field, body) => {
    await refused(body, 422, "UNPROCESSABLE_ENTITY", `Failed to deserialize the JSON body into the target type: unknown field \`${field}\`, ${expectedTop}${unknownTop}`);
  });

  it("a request without a schema is 422", async () => {
    await refused({ name: "x" }, 422, "UNPROCESSABLE_ENTITY", "Failed to deserialize the JSON body into the target type: missing field `schema`");
  });

  it.each([
    ["an empty fields map", { fields: {} }, "schema.fields is empty: declare at least one dense_vector, sparse_vector or string field with full_text_search."],
    ["two dense fields", { fields: { a: dense, b: dense } }, "schema.fields declares 2 dense_vector fields; an index has at most one."],
    ["two sparse fields", { fields: { a: { type: "sparse_vector" }, b: { type: "sparse_vector" } } }, "schema.fields declares 2 sparse_vector fields; an index has at most one."],
    [
      "101 full-text fields",
      { fields: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`t${i}`, text])) },
      "schema.fields declares 101 full-text fields; an index has at most 100.",
    ],
    [
      "a reserved name",
      { fields: { _id: dense } },
      "schema.fields._id: field names starting with '_' are reserved; only _values (dense_vector) and _sparse_values (sparse_vector) are accepted, and only as the whole schema.",
    ],
    [
      "a reserved field beside others",
      { fields: { _values: dense, title: text } },
      "schema.fields: the reserved fields _values make a classic vector index and cannot be combined with other fields (title).",
    ],
    ["a reserved field with a description", { fields: { _values: { ...dense, description: "d" } } }, "schema.fields._values: reserved fields do not accept a description."],
    ["_values of the wrong type", { fields: { _values: { type: "sparse_vector" } } }, "schema.fields._values must be of type dense_vector (got sparse_vector)."],
    ["a name starting with $", { fields: { $v: dense } }, "schema.fields.$v: a field name must not start with '$', which introduces a filter operator."],
    ["a name over 64 bytes", { fields: { ["é".repeat(33)]: dense } }, `schema.fields.${"é".repeat(33)}: a field name may be at most 64 bytes (got 66).`],
    ["a dimension over 20000", { fields: { v: { ...dense, dimension: 20001 } } }, "schema.fields.v.dimension must be between 1 and 20000 (got 20001)."],
    ["an unknown metric", { fields: { v: { ...dense, metric: "manhattan" } } }, 'schema.fields.v.metric must be one of cosine, euclidean or dotproduct (got "manhattan").'],
    ["a description over 256 bytes", { fields: { v: { ...dense, description: "x".repeat(257) } } }, "schema.fields.v.description is 257 bytes long; a field's description may be at most 256 bytes."],
    [
      "a string field without full_text_search",
      { fields: { v: dense, category: { type: "string", filterable: true } } },
      "schema.fields.category is a string field without full_text_search: only full-text fields are declared; metadata is not declared in the schema (include it in the documents and it is indexed for filtering automatically).",
    ],
    [
      "a metadata type",
      { fields: { v: dense, year: { type: "float", filterable: true } } },
      "schema.fields.year: type float is a metadata type: metadata is not declared in the schema; include the values as document metadata and they are indexed for filtering automatically.",
    ],
    [
      "a semantic_text field",
      { fields: { content: { type: "semantic_text", model: "local-bm25" } } },
      "schema.fields.content: semantic_text cannot be declared in a schema: create an index with an integrated embedding model through POST /indexes/create-for-model instead; it appears as a semantic_text field when the index is described.",
    ],
    ["an unknown type", { fields: { v: { type: "geo_point" } } }, 'schema.fields.v.type must be one of dense_vector, sparse_vector or string (got "geo_point").'],
    ["stop_words without stemming", { fields: { t: { type: "string", full_text_search: { stop_words: true } } } }, "schema.fields.t.full_text_search.stop_words requires stemming: true (stop words are removed only from stemmed text)."],
    [
      "ngram with stemming",
      { fields: { t: { type: "string", full_text_search: { stemming: true, ngram: { min_gram: 2, max_gram: 3 } } } } },
      "schema.fields.t.full_text_search.ngram cannot be combined with stemming or stop_words.",
    ],
    ["min_gram over max_gram", { fields: { t: { type: "string", full_text_search: { ngram: { min_gram: 4, max_gram: 3 } } } } }, "schema.fields.t.full_text_search.ngram.min_gram (4) must not be greater than max_gram (3)."],
    ["max_gram over 10", { fields: { t: { type: "string", full_text_search: { ngram: { min_gram: 1, max_gram: 11 } } } } }, "schema.fields.t.full_text_search.ngram.max_gram must be from 1 to 10 (got 11)."],
  ])("%s is 400", async (_what, schema, message) => {
    await refused({ name: "x", schema }, 400, "INVALID_ARGUMENT", message);
  });

  it("an unsupported language is 400 and lists the languages", async () => {
    await refused(
      { name: "x", schema: { fields: { t: { type: "string", full_text_search: { language: "klingon" } } } } },
      400,
      "INVALID_ARGUMENT",
      'schema.fields.t.full_text_search.language "klingon" is not a supported language; supported: ar (arabic), da (danish), de (german), el (greek), en (english), es (spanish), fi (finnish), fr (french), hu (hungarian), it (italian), nl (dutch), no (norwegian), pt (portuguese), ro (romanian), ru (russian), sv (swedish), ta (tamil), tr (turkish).',
    );
  });

  it.each([
    ["an unknown key in a dense field", { fields: { v: { ...dense, filterable: true } } }, "schema.fields.v: unknown field `filterable`, expected one of `type`, `description`, `dimension`, `metric`"],
    ["an unknown key in full_text_search", { fields: { t: { type: "string", full_text_search: { lowercase: true } } } }, "schema.fields.t.full_text_search: unknown field `lowercase`, expected one of `language`, `stemming`, `stop_words`, `ngram`"],
    ["a dense field without a dimension", { fields: { v: { type: "dense_vector", metric: "cosine" } } }, "missing field `schema.fields.v.dimension`"],
  ])("%s is 422", async (_what, schema, message) => {
    await refused({ name: "x", schema }, 422, "UNPROCESSABLE_ENTITY", `Failed to deserialize the JSON body into the target type: ${message}`);
  });

  it("CMEK with a full-text field is 412; CMEK without one is refused by the local service", async () => {
    await refused(
      { name: "x", cmek_id: "arn:aws:kms:us-east-1:1:key/k", schema: { fields: { t: text } } },
      412,
      "FAILED_PRECONDITION",
      "Index creation failed. Indexes with full_text_search fields are not supported in CMEK-encrypted projects",
    );
    await refused(
      { name: "x", cmek_id: "arn:aws:kms:us-east-1:1:key/k", schema: { fields: { v: dense } } },
      400,
      "INVALID_ARGUMENT",
      "cmek_id is not supported by the local service: it keeps its data in the data directory (mode 0700), not encrypted with a customer-managed key. Leave cmek_id out.",
    );
  });

  it("deployments: pod cannot be created, byoc needs dedicated read capacity, managed takes no environment", async () => {
    await refused(
      { name: "x", deployment: { deployment_type: "pod", environment: "us-east1-gcp", pod_type: "p1.x1" }, schema: { fields: { v: dense } } },
      422,
      "UNPROCESSABLE_ENTITY",
      "Failed to deserialize the JSON body into the target type: deployment: unknown variant `pod`, expected `managed` or `byoc` (pod-based indexes are created with an earlier API version, with spec.pod)",
    );
    await refused(
      { name: "x", deployment: { deployment_type: "byoc", environment: "e" }, schema: { fields: { v: dense } } },
      400,
      "INVALID_ARGUMENT",
      "read_capacity must be {mode: Dedicated, …} for a byoc deployment: BYOC indexes do not support OnDemand, the default when read_capacity is left out.",
    );
    await refused(
      { name: "x", deployment: { deployment_type: "managed", cloud: "aws", region: "us-east-1", environment: "e" }, schema: { fields: { v: dense } } },
      422,
      "UNPROCESSABLE_ENTITY",
      "Failed to deserialize the JSON body into the target type: deployment: unknown field `environment`, expected one of `deployment_type`, `cloud`, `region`",
    );
  });

  it("an existing name is 409", async () => {
    await refused({ name: "articles", schema: { fields: { v: dense } } }, 409, "ALREADY_EXISTS", "Index articles already exists.");
  });
});
