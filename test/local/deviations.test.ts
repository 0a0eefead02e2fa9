// The deviations from the hosted API that the official client's own test suite found, each pinned with the official client.
import { Pinecone } from "@pinecone-database/pinecone";
import { describe, expect, it } from "vitest";
import { useServiceProcess } from "../helpers/local-service.js";
import { controlClient } from "./http.js";

let pc: Pinecone;
const serverless = { cloud: "aws" as const, region: "us-east-1" };

const service = useServiceProcess((started) => {
  pc = new Pinecone({ apiKey: started.apiKey, controllerHostUrl: started.controlUrl });
});

describe("deviations found by a client's suite", () => {
  it("1: values, sparse values and scores come back as the shortest decimal of the stored float32", async () => {
    const model = await pc.createIndex({ name: "floats", dimension: 2, metric: "dotproduct", spec: { serverless }, waitUntilReady: true });
    const index = pc.index({ name: "floats", host: `http://${model!.host}` });
    await index.upsert({ records: [{ id: "a", values: [0.1, 0.2], sparseValues: { indices: [3], values: [0.3] } }] });
    await index.update({ id: "a", values: [0.5, 0.4] });
    const fetched = await index.fetch({ ids: ["a"] });
    expect(fetched.records.a.values).toEqual([0.5, 0.4]);
    expect(fetched.records.a.sparseValues).toEqual({ indices: [3], values: [0.3] });
    const result = await index.query({ vector: [0.7, 0.1], sparseVector: { indices: [3], values: [1] }, topK: 1, includeValues: true });
    expect(result.matches[0].values).toEqual([0.5, 0.4]);
    expect(result.matches[0].sparseValues).toEqual({ indices: [3], values: [0.3] });
    // 0.5·0.7 + 0.4·0.1 + 0.3·1 in float32 arithmetic of the stored values, printed as the shortest float32 decimal
    expect(result.matches[0].score).toBe(0.69);
    const byMetadata = await fetch(`http://${model!.host}/vectors/fetch_by_metadata`, {
      method: "POST",
      headers: { "Api-Key": service().apiKey, "content-type": "application/json" },
      body: JSON.stringify({ filter: {} }),
    });
    expect(await byMetadata.text()).toContain('"values":[0.5,0.4]');
  });

  it("2: a source_collection that does not exist is a 400 naming the resource", async () => {
    await expect(
      pc.createIndex({ name: "from-nothing", dimension: 2, spec: { pod: { environment: "us-east1-gcp", podType: "p1.x1", sourceCollection: "no-such-collection" } } }),
    ).rejects.toMatchObject({ name: "PineconeBadRequestError", message: expect.stringContaining("Resource no-such-collection not found") });
    await expect(
      pc.createIndex({ name: "from-nothing", dimension: 2, spec: { serverless: { ...serverless, sourceCollection: "missing" } } }),
    ).rejects.toMatchObject({ name: "PineconeBadRequestError", message: expect.stringContaining("Resource missing not found") });
    await expect(pc.describeIndex("from-nothing")).rejects.toMatchObject({ name: "PineconeNotFoundError" });
  });

  it("4: read_capacity Dedicated and a schema are stored and described", async () => {
    const created = await pc.createIndex({
      name: "dedicated",
      dimension: 2,
      spec: {
        serverless: {
          ...serverless,
          readCapacity: { mode: "Dedicated", nodeType: "t1", manual: { replicas: 2, shards: 1 } },
          schema: { fields: { genre: { filterable: true } } },
        },
      },
      waitUntilReady: true,
    });
    const expected = {
      readCapacity: { mode: "Dedicated", dedicated: { nodeType: "t1", scaling: "Manual", manual: { replicas: 2, shards: 1 } }, status: { state: "Ready", currentReplicas: 2, currentShards: 1 } },
      schema: { fields: { genre: { filterable: true } } },
    };
    expect(created!.spec.serverless).toMatchObject(expected);
    expect((await pc.describeIndex("dedicated")).spec.serverless).toMatchObject(expected);
    expect((await pc.describeIndex("floats")).spec.serverless!.readCapacity).toEqual({ mode: "OnDemand", status: { state: "Ready" } });

    // The schema is honoured: a filter on a field it does not list is refused, not answered with nothing.
    const index = pc.index({ name: "dedicated", host: `http://${created!.host}` });
    await index.upsert({ records: [{ id: "a", values: [1, 0], metadata: { genre: "jazz", year: 1959 } }] });
    expect((await index.query({ vector: [1, 0], topK: 1, filter: { genre: "jazz" } })).matches.map((m) => m.id)).toEqual(["a"]);
    await expect(index.query({ vector: [1, 0], topK: 1, filter: { year: { $gt: 1950 } } })).rejects.toThrow(
      /field 'year' is not filterable in this index; its schema lists: genre/,
    );
  });

  it("4: a setting the service does not know is refused, never dropped", async () => {
    const api = controlClient(service().controlUrl, service().apiKey);
    const refused = async (body: unknown, text: string, status = 400) => {
      const answer = await api("POST", "/indexes", body);
      expect(answer.status).toBe(status);
      expect((answer.body as { error: { message: string } }).error.message).toContain(text);
    };
    const base = { name: "strict", dimension: 2 };
    await refused({ ...base, dimensions: 3, spec: { serverless } }, "dimensions is not a setting the local service knows");
    await refused({ ...base, spec: { serverless: { ...serverless, replicas: 2 } } }, "spec.serverless.replicas is not a setting");
    await refused({ ...base, spec: { serverless: { ...serverless, read_capacity: { mode: "Dedicated" } } } }, "missing field `spec.serverless.read_capacity.dedicated`", 422);
    await refused({ ...base, spec: { serverless: { ...serverless, read_capacity: { mode: "Burst" } } } }, 'must be "OnDemand" or "Dedicated"');
    await refused({ ...base, spec: { serverless: { ...serverless, schema: { fields: { a: { filterable: false } } } } } }, "filterable must be true");
    await refused({ ...base, spec: { pod: { environment: "us-east1-gcp", pod_type: "p1.x1", size: "big" } } }, "spec.pod.size is not a setting");
    await refused({ ...base, spec: { byoc: { environment: "aws-us-east-1-b921" } } }, "spec.byoc is not supported by the local service");
    const collection = await api("POST", "/collections", { name: "c", source: "dedicated", extra: 1 });
    expect(collection.status).toBe(400);
    await expect(pc.describeIndex("strict")).rejects.toMatchObject({ name: "PineconeNotFoundError" });
    const query = await fetch(`http://${(await pc.describeIndex("floats")).host}/query`, {
      method: "POST",
      headers: { "Api-Key": service().apiKey, "content-type": "application/json" },
      body: JSON.stringify({ vector: [1, 0], topK: 1, includeValue: true }),
    });
    expect(query.status).toBe(400);
    expect(((await query.json()) as { message: string }).message).toContain("includeValue is not a field of /query");

    // query tuning for dedicated read nodes: honoured there (search is exact), refused elsewhere
    const dedicated = pc.index({ name: "dedicated", host: `http://${(await pc.describeIndex("dedicated")).host}` });
    expect((await dedicated.query({ vector: [1, 0], topK: 1, scanFactor: 0.5, maxCandidates: 10 } as never)).matches.map((m) => m.id)).toEqual(["a"]);
    const floats = pc.index({ name: "floats", host: `http://${(await pc.describeIndex("floats")).host}` });
    await expect(floats.query({ vector: [1, 0], topK: 1, scanFactor: 2 } as never)).rejects.toThrow(
      /scanFactor is supported only by indexes with dedicated read capacity/,
    );
    const outOfRange = await fetch(`http://${(await pc.describeIndex("dedicated")).host}/query`, {
      method: "POST",
      headers: { "Api-Key": service().apiKey, "content-type": "application/json" },
      body: JSON.stringify({ vector: [1, 0], topK: 1, maxCandidates: 0 }),
    });
    expect(((await outOfRange.json()) as { message: string }).message).toBe("maxCandidates must be an integer from 1 to 100000, got 0");
  });
});
