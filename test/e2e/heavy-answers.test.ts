// Heavy answers over HTTP: concurrent query_vectors of topK 1000 with the values of a 768-d index take their turn in
// the answer budget (--max-answer-mb-in-flight), while list_indexes from another session is answered meanwhile.
import { afterAll, beforeAll, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { connect, startHttp, type HttpServerProcess } from "../helpers/http-server.js";
import { createIndex, randomVector, serverless, upsertRandomVectors } from "./support.js";

let svc: RunningService;
let p: HttpServerProcess;

beforeAll(async () => {
  svc = await startServiceProcess();
  const { host } = await createIndex(svc, { name: "wide", dimension: 768, metric: "cosine", spec: serverless });
  await upsertRandomVectors(svc, host, 1000, 768, "w");
  // Room for one such answer at a time (each is estimated at ~49 MiB).
  p = await startHttp({
    env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl },
    args: ["--insecure-http-no-token", "--max-answer-mb-in-flight", "60", "--log-level", "debug"],
  });
});
afterAll(async () => {
  await p?.stop();
  await svc?.stop();
});

test("heavy answers wait their turn within the budget; list_indexes is answered while they wait", async () => {
  const heavy = await Promise.all(Array.from({ length: 4 }, () => connect(p.url)));
  const light = await connect(p.url);
  const finished: string[] = [];
  const calls = heavy.flatMap((c, s) =>
    Array.from({ length: 3 }, (_, k) =>
      c.client
        .callTool({ name: "query_vectors", arguments: { index: "wide", vector: randomVector(768, 7 + s * 3 + k), topK: 1000, includeValues: true } })
        .then((r) => (finished.push("query"), r)),
    ),
  );
  // Once calls are waiting for room, a light call from another session is answered before they are all done.
  await expect.poll(() => /query_vectors: waiting for \d+ MiB of the answer budget/.test(p.stderr()), { timeout: 30_000 }).toBe(true);
  const listed = await light.client.callTool({ name: "list_indexes", arguments: {} });
  finished.push("list_indexes");
  expect(listed.isError).toBeFalsy();
  const results = await Promise.all(calls);
  expect(finished.indexOf("list_indexes")).toBeLessThan(finished.length - 1);
  for (const r of results) {
    expect(r.isError, JSON.stringify(r.content).slice(0, 300)).toBeFalsy();
    expect((r.structuredContent as { matches: unknown[] }).matches.length).toBeGreaterThan(0);
  }
  // One at a time: each holder's line says the budget in use was its own answer alone.
  const held = [...p.stderr().matchAll(/query_vectors: holding (\d+) MiB of the answer budget \((\d+) MiB of 60 MiB in use\)/g)];
  expect(held).toHaveLength(12);
  for (const [, own, inUse] of held) expect(inUse).toBe(own);
  for (const c of [...heavy, light]) {
    await c.transport.terminateSession();
    await c.client.close();
  }
}, 120_000);

test("light calls are answered one after another while a heavy answer is being produced", async () => {
  const heavy = await connect(p.url);
  const light = await connect(p.url);
  const lightCalls = [
    { name: "list_indexes", arguments: {} },
    { name: "describe_index_stats", arguments: { index: "wide" } },
  ];
  for (const call of lightCalls) expect((await light.client.callTool(call)).isError).toBeFalsy(); // their modules loaded
  const from = p.stderr().length;
  let heavyDone = false;
  const call = heavy.client
    .callTool({ name: "query_vectors", arguments: { index: "wide", vector: randomVector(768, 99), topK: 1000, includeValues: true } })
    .then((r) => ((heavyDone = true), r));
  // The call holds its room in the budget: its ~9 MB answer is being searched, written by the service, sent and read.
  await expect.poll(() => p.stderr().slice(from).includes("query_vectors: holding"), { timeout: 30_000, interval: 5 }).toBe(true);
  // Four light calls in a row, each sent when the one before is answered, the second and fourth to the same index's
  // data plane: each needs a moment of each process's event loop, the heavy answer hundreds of its slices. Were
  // either loop held while the answer is written or read, they would come after it.
  const answeredWhileHeavy: boolean[] = [];
  for (let i = 0; i < 4; i++) {
    const r = await light.client.callTool(lightCalls[i % 2]);
    expect(r.isError).toBeFalsy();
    answeredWhileHeavy.push(!heavyDone);
  }
  const result = await call;
  expect(answeredWhileHeavy).toEqual([true, true, true, true]);
  expect(result.isError).toBeFalsy();
  expect((result.structuredContent as { matches: unknown[] }).matches.length).toBeGreaterThan(0);
  for (const c of [heavy, light]) {
    await c.transport.terminateSession();
    await c.client.close();
  }
}, 120_000);
