// The configuration is read once and never changed: a write to it, or to one of its lists, throws.
import { expect, test } from "vitest";
import { loadConfig, loadServeConfig } from "../../src/config.js";

test("the MCP server's configuration is frozen, its lists too", () => {
  const loaded = loadConfig(["--allow-dir", "/tmp"], { PINECONE_API_KEY: "a-real-looking-key-0123", VECDB_DATA_DIR: "/tmp/unused" });
  if (loaded.help) throw new Error("unexpected --help");
  const config = loaded.config as { apiKey?: string; allowDirs: string[] };
  expect(() => {
    config.apiKey = "another";
  }).toThrow(TypeError);
  expect(() => config.allowDirs.push("/etc")).toThrow(TypeError);
  expect(loaded.config).toMatchObject({ apiKey: "a-real-looking-key-0123", allowDirs: ["/tmp"] });
});

test("vecdb-mcp serve's configuration is frozen", () => {
  const loaded = loadServeConfig(["--data-dir", "/tmp/unused"], {});
  if (loaded.help) throw new Error("unexpected --help");
  expect(() => {
    (loaded.config as { port: number }).port = 1;
  }).toThrow(TypeError);
  expect(loaded.config).toMatchObject({ dataDir: "/tmp/unused", port: 0, host: "127.0.0.1", embedTimeoutMs: 30000, allowDirs: [] });
});
