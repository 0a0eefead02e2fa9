// The memory budget of answers being received at once: heavy calls take their turn, first come first served; one that
// finds no room in time is refused having read nothing; one cancelled while waiting leaves the line.
import { expect, test } from "vitest";
import { AnswerBudget, answerBytes } from "../../src/tool-kit/results/answer-budget.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";

const never = new AbortController().signal;

test("an answer's size: records × (an allowance for id and metadata + 64 bytes a value)", () => {
  expect(answerBytes(1000, 768)).toBe(1000 * (2048 + 768 * 64)); // topK 1000 with the values of a 768-d index: ~51 MB
  expect(answerBytes(1000, 0)).toBe(2_048_000);
});

test("past the budget a call waits, and calls get in in the order they came as room is given back", async () => {
  const budget = new AnswerBudget(100, 10_000);
  const first = await budget.take(60, never, "query_vectors");
  const order: string[] = [];
  const second = budget.take(60, never, "query_vectors").then((r) => (order.push("second"), r));
  const third = budget.take(30, never, "fetch_vectors").then((r) => (order.push("third"), r)); // would fit, but comes later
  await new Promise((r) => setImmediate(r));
  expect(order).toEqual([]);
  expect(budget.inUse).toBe(60);
  first();
  const releaseSecond = await second;
  const releaseThird = await third;
  expect(order).toEqual(["second", "third"]);
  expect(budget.inUse).toBe(90);
  releaseSecond();
  releaseSecond(); // once only
  releaseThird();
  expect(budget.inUse).toBe(0);
});

test("a call larger than the whole budget runs alone", async () => {
  const budget = new AnswerBudget(100, 10_000);
  const small = await budget.take(10, never, "query_vectors");
  const huge = budget.take(500, never, "query_vectors");
  small();
  const release = await huge;
  expect(budget.inUse).toBe(100);
  release();
  expect(budget.inUse).toBe(0);
});

test("no room within the wait: refused with what to do, nothing held; a cancelled waiter leaves the line", async () => {
  const budget = new AnswerBudget(100 * 1024 * 1024, 50);
  const held = await budget.take(90 * 1024 * 1024, never, "query_vectors");
  const refused = await budget.take(51 * 1024 * 1024, never, "query_vectors").catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(ToolError);
  expect((refused as ToolError).message).toBe(
    "Not run: the answers other calls are receiving take the server's memory budget for answers (100 MiB, --max-answer-mb-in-flight), " +
      "and query_vectors's answer of about 51 MiB found no room within 0.05 s. Nothing was read.\n" +
      "Next step: call again in a moment, or ask for a smaller answer (a smaller topK or fewer ids, or includeValues false).",
  );
  const cancel = new AbortController();
  const waiting = budget.take(20 * 1024 * 1024, cancel.signal, "fetch_vectors").catch((e: unknown) => e);
  const behind = budget.take(5 * 1024 * 1024, never, "fetch_vectors");
  cancel.abort(new Error("cancelled by the client"));
  expect(((await waiting) as Error).message).toBe("cancelled by the client");
  (await behind)(); // the one behind it got in once the cancelled one left
  held();
  expect(budget.inUse).toBe(0);
});
