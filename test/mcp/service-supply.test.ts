// A tool call on the shared local service that failed because the service went away is run once more on a new one;
// when no new one can be had, the result says it was not retried. A call that failed on its own is not repeated.
import { describe, expect, it } from "vitest";
import type { Service } from "../../src/api/service.js";
import { runWithRecovery, type ServiceSupply } from "../../src/mcp/service-supply.js";
import type { Logger } from "../../src/log.js";

const lines: string[] = [];
const log: Logger = { debug: () => {}, info: (m) => void lines.push(m), warning: () => {}, error: () => {} } as Logger;
const first = { name: "first" } as unknown as Service;
const second = { name: "second" } as unknown as Service;
const signal = new AbortController().signal;
type R = { isError?: boolean; table: string };

function supply(recover: () => Promise<Service | undefined>): ServiceSupply & { asked: number } {
  const s = { asked: 0, current: async () => first, recover: async () => (s.asked++, recover()) };
  return s;
}

describe("runWithRecovery", () => {
  it("a call that succeeds is not checked again", async () => {
    const sup = supply(async () => second);
    const out = await runWithRecovery<R>("t", sup, async () => ({ table: "ok" }), signal, log);
    expect(out).toEqual({ table: "ok" });
    expect(sup.asked).toBe(0);
  });

  it("the service went away: the call runs once more, on the new service, and that answer is the result, saying so", async () => {
    const used: string[] = [];
    const run = async (s: Service): Promise<R> => {
      used.push((s as unknown as { name: string }).name);
      if (s === first) throw new Error("connect ECONNREFUSED 127.0.0.1:1");
      return { table: "landed" };
    };
    const out = await runWithRecovery<R>("upsert_vectors", supply(async () => second), run, signal, log);
    expect(out).toEqual({
      table: "landed",
      note: "Retried: the local service stopped answering during this call (it went away, and a new one was started); the call was run again from the start on the new one, and this is the second run's result. A write's records were all sent again.",
    });
    expect(used).toEqual(["first", "second"]);
    expect(lines.at(-1)).toBe("upsert_vectors: the local service went away during the call; retrying it once on the new one");
  });

  it("the service is still there: the failure is the call's own, returned as it was, not repeated", async () => {
    let runs = 0;
    const result: R = { isError: true, table: "bad record" };
    const out = await runWithRecovery<R>("t", supply(async () => undefined), async () => (runs++, result), signal, log);
    expect(out).toBe(result);
    expect(runs).toBe(1);
    await expect(
      runWithRecovery<R>("t", supply(async () => undefined), async () => { throw new Error("own"); }, signal, log),
    ).rejects.toThrow("own");
  });

  it("gone, and no new one could be started: the result says the call was not retried", async () => {
    const noService = supply(async () => { throw new Error("the local service for /d exited (code 1)"); });
    const partial = await runWithRecovery<R>("t", noService, async () => ({ isError: true, table: "3 landed, 7 not" }), signal, log);
    expect(partial.table).toBe(
      "3 landed, 7 not\n\nThe local service went away during this call and a new one could not be started " +
        "(the local service for /d exited (code 1)); the call was not retried. What the result above says landed, landed.",
    );
    await expect(runWithRecovery<R>("list_indexes", noService, async () => { throw new Error("socket hang up"); }, signal, log)).rejects.toThrow(
      /the call was not retried/,
    );
  });

  it("a call the client cancelled is not retried", async () => {
    const cancelled = new AbortController();
    cancelled.abort();
    const sup = supply(async () => second);
    await expect(runWithRecovery<R>("t", sup, async () => { throw new Error("aborted"); }, cancelled.signal, log)).rejects.toThrow("aborted");
    expect(sup.asked).toBe(0);
  });
});
