import { describe, expect, it } from "vitest";
import { ServiceError } from "../../src/api/errors.js";
import { errorText } from "../../src/mcp/errors.js";
import { listingStep, refuseMissing, resourceOf } from "../../src/tool-kit/missing-resource.js";
import { refusalText, untouchedBy } from "../../src/tool-kit/refusal.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { refusalOf } from "../helpers/refusal.js";

const reads = { name: "describe_namespace", annotations: { readOnlyHint: true, destructiveHint: false } };
const writes = { name: "upsert_vectors", annotations: { readOnlyHint: false, destructiveHint: true } };
const deletes = { name: "delete_index", annotations: { readOnlyHint: false, destructiveHint: true }, requiresAllowDestructive: true };
const configures = { name: "configure_index", annotations: { readOnlyHint: false, destructiveHint: false } };

describe("a refusal as the model reads it", () => {
  it("one pinned text per kind of untouched", () => {
    expect(refusalText({ problem: "limit is 0: limit is a whole number from 1 to 100", untouched: "read" })).toBe(
      "limit is 0: limit is a whole number from 1 to 100. Nothing was read.",
    );
    expect(refusalText({ problem: 'Index "docs" is not ready (state Initializing)', untouched: "written", next: "wait a little and call again." })).toBe(
      'Index "docs" is not ready (state Initializing). Nothing was written.\nNext step: wait a little and call again.',
    );
    expect(refusalText({ problem: 'Namespace "a" already exists in index "docs"', untouched: "created", next: "choose another name." })).toBe(
      'Namespace "a" already exists in index "docs". Nothing was created.\nNext step: choose another name.',
    );
    expect(refusalText({ problem: "Nothing to change: give at least one setting.", untouched: "changed" })).toBe(
      "Nothing to change: give at least one setting. Nothing was changed.",
    );
    expect(refusalText({ problem: "Not done: the user declined the confirmation", untouched: "deleted", next: "do not retry unless the user asks again." })).toBe(
      "Not done: the user declined the confirmation. Nothing was deleted.\nNext step: do not retry unless the user asks again.",
    );
  });

  it("a problem that lists things keeps 'Nothing was …' on a line after the list", () => {
    expect(refusalText({ problem: '2 problems with the records for index "docs":\n- position 0: a\n- position 1: b', untouched: "written", next: "fix them." })).toBe(
      '2 problems with the records for index "docs":\n- position 0: a\n- position 1: b\nNothing was written.\nNext step: fix them.',
    );
  });

  it("untouched: false says nothing of what was untouched (something did happen)", () => {
    expect(refusalText({ problem: 'Index "a" was created but did not become ready.', untouched: false, next: "look at it." }, "written")).toBe(
      'Index "a" was created but did not become ready.\nNext step: look at it.',
    );
  });

  it("a failure the service reported reads as before: what happened, and the next step", () => {
    const refused = new ServiceError({ status: 409, code: "ALREADY_EXISTS", url: "http://h/indexes", method: "POST", serviceMessage: "Resource docs already exists", attempts: 1 });
    expect(errorText(configures, refused)).toBe(
      'configure_index failed — the service answered HTTP 409 ALREADY_EXISTS: "Resource docs already exists"\n' +
        "Next step: The name is taken. Choose another name (list_collections and list_indexes show the names in use).",
    );
  });

  it("what was untouched, when the refusal leaves it out, follows from the tool's declaration", () => {
    expect(untouchedBy(reads)).toBe("read");
    expect(untouchedBy(writes)).toBe("written");
    expect(untouchedBy(configures)).toBe("written");
    expect(untouchedBy(deletes)).toBe("deleted");
    const refused = new ToolError({ problem: "Not done: the user declined the confirmation", next: "do not retry." });
    expect(refusalOf(errorText(deletes, refused))).toEqual({ problem: "Not done: the user declined the confirmation", untouched: "deleted", next: "do not retry." });
    expect(refusalOf(errorText(reads, refused)).untouched).toBe("read");
    expect(refusalOf(errorText(reads, new ToolError({ problem: "x", untouched: "changed" }))).untouched).toBe("changed");
  });

  it("reads back into the same fields", () => {
    const refusal = { problem: 'Index "a" is sparse: it has no dense dimension', untouched: "read" as const, next: "query it with sparseVector." };
    expect(refusalOf(refusalText(refusal))).toEqual(refusal);
  });
});

describe("a missing resource and the tool that lists it", () => {
  const notFound = (path: string) => new ServiceError({ status: 404, url: `http://127.0.0.1:5080${path}`, serviceMessage: "not found", method: "GET", attempts: 1 });

  it("the URL names the resource", () => {
    expect(resourceOf("http://h/indexes/docs")).toBe("index");
    expect(resourceOf("http://h/collections/c")).toBe("collection");
    expect(resourceOf("http://h/backups/b1")).toBe("backup");
    expect(resourceOf("http://h/backups/b1/create-index")).toBe("backup");
    expect(resourceOf("http://h/restore-jobs/j1")).toBe("restore job");
    expect(resourceOf("http://h/namespaces/a")).toBe("namespace");
    expect(resourceOf("http://h/records/namespaces/a/search")).toBeUndefined();
    expect(resourceOf("http://h/bulk/imports/7")).toBe("import");
    expect(resourceOf("http://h/models/llama-text-embed-v2")).toBe("model");
  });

  it("a tool's 404 becomes a refusal naming it and the listing tool", () => {
    const thrown = (() => {
      try {
        refuseMissing(notFound("/namespaces/a"), { resource: "namespace", name: "a", index: "docs" });
      } catch (e) {
        return e;
      }
    })();
    expect(thrown).toBeInstanceOf(ToolError);
    expect((thrown as ToolError).refusal).toEqual({ problem: 'Namespace "a" not found in index "docs"', untouched: undefined, next: listingStep("namespace") });
    expect(listingStep("namespace")).toBe("Call list_namespaces to see the namespaces there are, then call again with one of them.");
    expect(() => refuseMissing(notFound("/indexes/docs"), { resource: "namespace", name: "a", index: "docs" })).toThrow(ServiceError);
  });

  it("the server's text for a 404 it was not told about names the same listing tool", () => {
    expect(errorText(reads, notFound("/backups/b1"))).toContain(`Next step: ${listingStep("backup")}`);
    expect(errorText(reads, notFound("/indexes/docs"))).toContain(`Next step: ${listingStep("index")}`);
    // A tool that writes records into an index may be missing one to create.
    expect(errorText(writes, notFound("/indexes/docs"))).toContain("or create the index first");
    expect(errorText(configures, notFound("/indexes/docs"))).not.toContain("or create the index first");
  });
});
