// Index answers in the 2026-07 shape (deployment + schema) read into the one view the tools use, and what the index
// summaries make of them: every deployment type, each kind of vector field, a semantic_text field, legacy metadata.
import { describe, expect, test } from "vitest";
import { IndexModelSchema } from "../../src/api/records.js";
import { summarizeIndex } from "../../src/tool-kit/results/index-summary.js";

const base = { name: "i", host: "h.example", status: { ready: true, state: "Ready" }, deletion_protection: "disabled" };
const summary = (model: Record<string, unknown>) => summarizeIndex(IndexModelSchema.parse({ ...base, ...model }));

describe("2026-07 index answers", () => {
  test("a pod deployment with a classic dense index, its legacy filterable fields", () => {
    const s = summary({
      deployment: { deployment_type: "pod", environment: "us-east1-gcp", pod_type: "p1.x2", replicas: 2, shards: 3 },
      schema: { fields: { _values: { type: "dense_vector", dimension: 8, metric: "euclidean" }, _sparse_values: { type: "sparse_vector" }, genre: { filterable: true } } },
      source_collection: "snap",
    });
    expect(s).toMatchObject({ kind: "pod", holds: "vectors", dimension: 8, metric: "euclidean", vectorType: "dense", environment: "us-east1-gcp", podType: "p1.x2", replicas: 2, shards: 3, pods: 6, sourceCollection: "snap" });
    expect(s.fields).toContainEqual({ name: "genre", type: "metadata", filterable: true });
  });

  test("a BYOC deployment, dedicated read capacity, CMEK, restored from a backup; sparse only", () => {
    const s = summary({
      deployment: { deployment_type: "byoc", environment: "aws-us-east-1-b921" },
      schema: { fields: { _sparse_values: { type: "sparse_vector" } } },
      read_capacity: { mode: "Dedicated", dedicated: { node_type: "b1", scaling: "Manual", manual: { replicas: 2, shards: 1 } }, status: { state: "Scaling" } },
      cmek_id: "arn:key",
      source_backup_id: "bk-1",
    });
    expect(s).toMatchObject({ kind: "byoc", holds: "vectors", metric: "dotproduct", vectorType: "sparse", environment: "aws-us-east-1-b921", cmekId: "arn:key", sourceBackupId: "bk-1" });
    expect(s.readCapacity).toEqual({ mode: "Dedicated", state: "Scaling", nodeType: "b1", replicas: 2, shards: 1 });
    expect(s).not.toHaveProperty("dimension");
  });

  test("a semantic_text field is the index's embedding: it holds text", () => {
    const model = IndexModelSchema.parse({
      ...base,
      deployment: { deployment_type: "managed", cloud: "gcp", region: "europe-west4" },
      schema: { fields: { chunk: { type: "semantic_text", model: "llama-text-embed-v2", dimension: 1024, metric: "cosine", read_parameters: { input_type: "query" } }, genre: { type: "string", filterable: true } } },
    });
    expect(model.embed).toEqual({ model: "llama-text-embed-v2", field_map: { text: "chunk" }, metric: "cosine", dimension: 1024, read_parameters: { input_type: "query" } });
    expect(summarizeIndex(model)).toMatchObject({ kind: "serverless", holds: "text", dimension: 1024, metric: "cosine", cloud: "gcp", region: "europe-west4" });
  });

  test("full-text fields alone: documents, no metric", () => {
    const s = summary({ deployment: { deployment_type: "managed", cloud: "aws", region: "us-east-1" }, schema: { fields: { body: { type: "string", full_text_search: { language: "fr", stemming: true, stop_words: false } } } } });
    expect(s).toMatchObject({ holds: "documents", fields: [{ name: "body", type: "string", fullTextSearch: { language: "fr", stemming: true, stopWords: false } }] });
    expect(s).not.toHaveProperty("metric");
  });

  test("a 2026-04 answer is read as it is", () => {
    const s = summary({ dimension: 3, metric: "cosine", spec: { serverless: { cloud: "aws", region: "us-east-1" } }, vector_type: "dense" });
    expect(s).toEqual({ name: "i", kind: "serverless", holds: "vectors", dimension: 3, metric: "cosine", vectorType: "dense", state: "Ready", ready: true, host: "h.example", cloud: "aws", region: "us-east-1", deletionProtection: "disabled" });
  });
});
