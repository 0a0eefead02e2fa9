// Confirmation before destruction in the 2026-07-28 era, by multi round-trip requests: the call answers input_required
// with the same question the old era asks by elicitation/create, and a signed requestState; the client calls again
// with the answer and that state. A tampered, foreign, expired or replayed state is refused and nothing is done; a
// client without elicitation gets the old contract (--allow-destructive consents).
import { createRequestStateCodec } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { startMcp } from "../helpers/mcp-client.js";
import { raw, sseMessages, startHttp, type HttpServerProcess } from "../helpers/http-server.js";
import { modernRequest, startModernStdio } from "../helpers/mcp-modern.js";
import { api, createIndex, serverless } from "./support.js";
import { nothingWas } from "../../src/tool-kit/refusal.js";

const SECRET = "a-shared-secret-for-every-process-0123456789";
let svc: RunningService;
let env: Record<string, string>;

const exists = async (name: string) => (await api(svc, "GET", `/indexes/${name}`)).status === 200;
const question = (name: string) => `Delete index "${name}" — this cannot be undone.\nWhat will be lost: index "${name}": 0 records in 0 namespaces.\nTo confirm, type "${name}" exactly.`;

beforeAll(async () => {
  svc = await startServiceProcess();
  env = { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl, VECDB_HTTP_STATE_SECRET: SECRET };
});
afterAll(async () => {
  await svc?.stop();
});

describe("over stdio, with the SDK v2 client answering input_required for the person", () => {
  test("the same question in both eras; declined: nothing deleted, the same answer; accepted: deleted", async () => {
    await createIndex(svc, { name: "same-question", dimension: 2, spec: serverless });
    const asked: { era: string; message: string }[] = [];
    let reply: (p: ElicitRequest["params"]) => ElicitResult = () => ({ action: "decline" });
    const old = await startMcp({ env, args: ["--allow-destructive"], elicit: (p) => (asked.push({ era: "old", message: p.message }), reply(p)) });
    const modern = await startModernStdio({
      env,
      args: ["--allow-destructive"],
      elicit: (p) => (asked.push({ era: "new", message: (p as { message: string }).message }), reply(p as ElicitRequest["params"])),
    });
    try {
      const before = await old.call("delete_index", { index: "same-question" });
      const after = await modern.call("delete_index", { index: "same-question" });
      expect(asked).toEqual([
        { era: "old", message: question("same-question") },
        { era: "new", message: question("same-question") },
      ]);
      const { _meta: _, ...withoutMeta } = after;
      expect(withoutMeta).toEqual(before.result);
      expect(before.text).toBe(`Not done: the user declined the confirmation. ${nothingWas("deleted")}\nNext step: do not retry unless the user asks again.`);
      expect(await exists("same-question")).toBe(true);

      reply = (p) => ({ action: "accept", content: { name: /type "([^"]+)"/.exec(p.message)![1] } });
      const done = await modern.call("delete_index", { index: "same-question" });
      expect(done.isError, JSON.stringify(done)).toBeFalsy();
      expect(await exists("same-question")).toBe(false);
    } finally {
      await Promise.all([old.close(), modern.close()]);
    }
  });

  test("a client without elicitation: deleted at once, as in the old era (--allow-destructive is the consent)", async () => {
    await createIndex(svc, { name: "no-elicitation", dimension: 2, spec: serverless });
    const modern = await startModernStdio({ env, args: ["--allow-destructive"] });
    try {
      const done = await modern.call("delete_index", { index: "no-elicitation" });
      expect(done.isError).toBeFalsy();
      expect(await exists("no-elicitation")).toBe(false);
    } finally {
      await modern.close();
    }
  });
});

describe("on the wire (HTTP), the state is checked before anything runs", () => {
  let http: HttpServerProcess;
  const token = () => http.generatedToken!;
  const ELICIT = { elicitation: { form: {} } };
  const call = async (id: number, args: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const r = modernRequest(id, "tools/call", { name: "delete_index", arguments: args, ...extra }, { token: token(), name: "delete_index", capabilities: ELICIT });
    const res = await raw(http.url, r);
    return { status: res.status, message: sseMessages(res.body)[0] };
  };
  /** The first round: the question and its state. */
  const ask = async (index: string) => {
    const first = await call(1, { index });
    expect(first.message.result).toMatchObject({ resultType: "input_required", requestState: expect.any(String) });
    return first.message.result as { inputRequests: Record<string, { method: string; params: { message: string } }>; requestState: string };
  };
  const accept = (name: string) => ({ confirm: { action: "accept", content: { name } } });

  beforeAll(async () => {
    http = await startHttp({ env, args: ["--allow-destructive"] });
  });
  afterAll(async () => {
    await http?.stop();
  });

  test("round one asks the question (elicitation/create) and deletes nothing; round two with the answer deletes", async () => {
    await createIndex(svc, { name: "two-rounds", dimension: 2, spec: serverless });
    const first = await ask("two-rounds");
    expect(first.inputRequests).toEqual({
      confirm: { method: "elicitation/create", params: expect.objectContaining({ message: question("two-rounds"), requestedSchema: expect.any(Object) }) },
    });
    expect(await exists("two-rounds")).toBe(true);
    const second = await call(2, { index: "two-rounds" }, { inputResponses: accept("two-rounds"), requestState: first.requestState });
    expect(second.message.result.resultType).toBe("complete");
    expect(second.message.result.isError).toBeFalsy();
    expect(await exists("two-rounds")).toBe(false);
  });

  test("replayed: the same state again is refused, and the index made again meanwhile stays", async () => {
    await createIndex(svc, { name: "replayed", dimension: 2, spec: serverless });
    const first = await ask("replayed");
    const round = { inputResponses: accept("replayed"), requestState: first.requestState };
    expect((await call(2, { index: "replayed" }, round)).message.result.isError).toBeFalsy();
    await createIndex(svc, { name: "replayed", dimension: 2, spec: serverless });
    const again = await call(3, { index: "replayed" }, round);
    expect(again.message.error).toEqual({ code: -32602, message: "Invalid requestState: it was used already; nothing was done. Call the tool again without it." });
    expect(await exists("replayed")).toBe(true);
  });

  test("altered: one character of the state changed is refused (-32602), nothing deleted", async () => {
    await createIndex(svc, { name: "altered", dimension: 2, spec: serverless });
    const { requestState } = await ask("altered");
    const dot = requestState.lastIndexOf(".");
    const flipped = requestState.slice(0, dot - 1) + (requestState[dot - 1] === "A" ? "B" : "A") + requestState.slice(dot);
    const r = await call(2, { index: "altered" }, { inputResponses: accept("altered"), requestState: flipped });
    expect(r.message.error).toMatchObject({ code: -32602, message: expect.stringContaining("requestState") });
    expect(await exists("altered")).toBe(true);
  });

  test("foreign: a state issued for another index is refused, nothing deleted", async () => {
    await createIndex(svc, { name: "asked-about", dimension: 2, spec: serverless });
    await createIndex(svc, { name: "other", dimension: 2, spec: serverless });
    const { requestState } = await ask("asked-about");
    const r = await call(2, { index: "other" }, { inputResponses: accept("other"), requestState });
    expect(r.message.error).toEqual({ code: -32602, message: "Invalid requestState: it was issued for another call; nothing was done. Call the tool again without it." });
    expect(await exists("other")).toBe(true);
  });

  test("signed with the right secret but expired, or for another caller: refused, nothing deleted", async () => {
    await createIndex(svc, { name: "stale", dimension: 2, spec: serverless });
    const { requestState } = await ask("stale");
    const payload = JSON.parse(Buffer.from(requestState.slice(3, requestState.lastIndexOf(".")), "base64url").toString("utf8")).p;
    const expired = await createRequestStateCodec({ key: SECRET, ttlSeconds: -60, bind: () => token() }).mint(payload, {} as never);
    const otherCaller = await createRequestStateCodec({ key: SECRET, bind: () => "someone else's token" }).mint(payload, {} as never);
    for (const state of [expired, otherCaller]) {
      const r = await call(2, { index: "stale" }, { inputResponses: accept("stale"), requestState: state });
      expect(r.message.error).toMatchObject({ code: -32602, message: expect.stringContaining("requestState") });
    }
    expect(await exists("stale")).toBe(true);
  });

  test("the signing secret is nowhere in what the server wrote", () => {
    expect(http.stderr()).not.toContain(SECRET);
  });
});
