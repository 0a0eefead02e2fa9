// configure_index end to end: the built server over stdio (with --allow-destructive) against the local service
// (test/tools/fixtures/administration.ts) — happy path with its table, and the bad inputs with the exact text a model
// receives.
import { describe, expect, test } from "vitest";
import { svc, mcp, useAdministrationFixture } from "../fixtures/administration.js";
import { api, createIndex, pod, serverless } from "../../e2e/support.js";
import { nothingWas } from "../../../src/tool-kit/refusal.js";

useAdministrationFixture();

describe("configure_index", () => {
  test("deletion protection and tags, before → after; an empty change is refused", async () => {
    const r = await mcp.call("configure_index", { index: "docs", deletionProtection: "enabled", tags: { team: "search" } });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toEqual({
      index: "docs",
      changes: [
        { setting: "deletionProtection", before: "disabled", after: "enabled" },
        { setting: "tags.team", before: "(none)", after: "search" },
      ],
    });
    expect(r.text).toBe(
      'Index "docs" configured:\n\n| setting | before | after |\n| --- | --- | --- |\n| deletionProtection | disabled | enabled |\n| tags.team | (none) | search |',
    );
    const removed = await mcp.call("configure_index", { index: "docs", deletionProtection: "disabled", tags: { team: "" } });
    expect(removed.structured?.changes).toEqual([
      { setting: "deletionProtection", before: "enabled", after: "disabled" },
      { setting: "tags.team", before: "search", after: "(none)" },
    ]);
    expect((await api(svc, "GET", "/indexes/docs")).body.tags).toEqual({});
    const empty = await mcp.call("configure_index", { index: "docs", tags: {} });
    expect(empty.isError).toBe(true);
    expect(empty.text).toBe(
      `Nothing to change: give at least one of deletionProtection, tags, pod (replicas, podType), embed or readCapacity. ${nothingWas("changed")}\nNext step: describe_index shows the current settings.`,
    );
  });

  test("pod replicas and pod type on a pod-based index; pod settings on a serverless index are refused", async () => {
    await createIndex(svc, { name: "pods-conf", dimension: 2, spec: pod });
    const r = await mcp.call("configure_index", { index: "pods-conf", pod: { replicas: 3, podType: "p1.x2" } });
    expect(r.structured?.changes).toEqual([
      { setting: "pod.replicas", before: "1", after: "3" },
      { setting: "pod.podType", before: "p1.x1", after: "p1.x2" },
    ]);
    expect((await api(svc, "GET", "/indexes/pods-conf")).body.spec.pod).toMatchObject({ replicas: 3, pod_type: "p1.x2", pods: 3 });
    const wrong = await mcp.call("configure_index", { index: "docs", pod: { replicas: 2 } });
    expect(wrong.text).toBe(`Index "docs" is serverless; pod settings apply to pod-based indexes only. ${nothingWas("changed")}`);
    const badType = await mcp.call("configure_index", { index: "pods-conf", pod: { podType: "p9.x1" } });
    expect(badType.isError).toBe(true);
    expect(badType.text).toContain(`pod.podType is "p9.x1": podType is s1, p1 or p2, then .x1, .x2, .x4 or .x8. ${nothingWas("changed")}`);
  });

  test("a protected index is not deleted, and the answer names the configure_index call that lifts it", async () => {
    await createIndex(svc, { name: "guard2", dimension: 2, spec: serverless });
    await mcp.call("configure_index", { index: "guard2", deletionProtection: "enabled" });
    const r = await mcp.call("delete_index", { index: "guard2" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('turn deletion protection off first with configure_index {"index": "guard2", "deletionProtection": "disabled"}');
    expect((await api(svc, "GET", "/indexes/guard2")).status).toBe(200);
  });
});
