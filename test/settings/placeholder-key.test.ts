// A key copied from an example as written is told apart from a key, and never becomes a secret to redact.
import { describe, expect, test } from "vitest";
import { loadConfig } from "../../src/config.js";
import { placeholderKeyProblem } from "../../src/placeholder-key.js";
import { redact } from "../../src/log.js";

const PLACEHOLDERS = [
  "YOUR_PINECONE_API_KEY", "your-api-key", "your_api_key_here", "<your-api-key>", "<PINECONE_API_KEY>", "[api key]",
  "${input:pinecone_api_key}", "${PINECONE_API_KEY}", "$PINECONE_API_KEY", "%PINECONE_API_KEY%", "{{PINECONE_API_KEY}}",
  "xxx", "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", "XXXXXXXXXXXXXXXX", "pcsk_xxxxxxxxxxxxxxxx", "********", "...",
  "changeme", "CHANGE_ME", "replace-me", "placeholder", "PINECONE_API_KEY", "api-key", "insert-key-here", "paste your key here", "TODO",
];
const KEYS = [
  "pcsk_4fXq2_9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0",
  "3b5d8f2a-1c4e-4b6a-9d8f-7e6c5b4a3d2e",
  "secret-key-that-must-not-show-0123",
  "k",
  "pclocal",
  "remote-key-not-for-local-0123",
];

describe("placeholderKeyProblem", () => {
  test.each(PLACEHOLDERS)("%s is a placeholder", (key) => expect(placeholderKeyProblem(key)).toBeDefined());
  test.each(KEYS)("%s may be a key", (key) => expect(placeholderKeyProblem(key)).toBeUndefined());
});

describe("a placeholder PINECONE_API_KEY", () => {
  test("is not the key: the local service, and the reason kept for the warning", () => {
    const loaded = loadConfig([], { PINECONE_API_KEY: "YOUR_PINECONE_API_KEY", VECDB_DATA_DIR: "/tmp/unused" });
    expect(loaded).toMatchObject({ config: { mode: "local", apiKey: undefined, apiKeyIgnored: "placeholder" } });
  });

  test("an empty one is unset (a desktop client's blank field), with nothing to warn of", () => {
    for (const env of [{ PINECONE_API_KEY: "" }, { PINECONE_API_KEY: " \n" }, {}]) {
      const unset = loadConfig([], { ...env, VECDB_DATA_DIR: "/tmp/unused" });
      expect(unset).toMatchObject({ config: { mode: "local", apiKey: undefined } });
      expect(unset.help || "apiKeyIgnored" in unset.config).toBe(false);
    }
    const unset = loadConfig([], { VECDB_DATA_DIR: "/tmp/unused" });
    expect(unset).toMatchObject({ config: { mode: "local" } });
    expect(unset.help || "apiKeyIgnored" in unset.config).toBe(false);
  });

  test("is never a secret, so advice naming a variable keeps its name", () => {
    const advice = "Check PINECONE_CONTROLLER_HOST and PINECONE_API_KEY";
    const loaded = loadConfig([], { PINECONE_API_KEY: "YOUR_PINECONE_API_KEY", VECDB_DATA_DIR: "/tmp/unused" });
    if (loaded.help) throw new Error("unexpected --help");
    expect(redact(advice, [loaded.config.apiKey, loaded.config.httpToken, loaded.config.embedKey])).toBe(advice);
    // What the server did before: the placeholder as a secret ate "PINECONE_".
    expect(redact(advice, ["YOUR_PINECONE_API_KEY"])).toBe("Check [redacted]CONTROLLER_HOST and [redacted]");
  });

  test("a key of one character repeated, then another, is judged at once (the check is linear)", () => {
    // The first check was a regex with nested repetition: each character more doubled its time (24: 0.2 s, 28: ~3 s).
    const started = process.hrtime.bigint();
    expect(placeholderKeyProblem(`pcsk_${"a".repeat(28)}b`)).toBeUndefined();
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(500);
    expect(placeholderKeyProblem(`pcsk_${"a".repeat(100_000)}b`)).toBeUndefined();
    expect(placeholderKeyProblem("aAa-aaa")).toBe("a masked or repeated-character placeholder");
  });
});
