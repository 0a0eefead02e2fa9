// server.json for the MCP registry (schema 2025-12-11) agrees with package.json and with the settings the server reads.
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { settingsOf } from "../../src/settings.js";
import { pkg, serverJson } from "./helpers.js";

describe("server.json", () => {
  it("declares the current registry schema and a name in the GitHub namespace form", () => {
    expect(serverJson.$schema).toBe("https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json");
    // The registry's pattern: exactly one slash between a reverse-DNS namespace and the server's name.
    expect(serverJson.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(serverJson.name).toMatch(/^io\.github\./);
    expect(serverJson.description.length).toBeGreaterThan(0);
    expect(serverJson.description.length).toBeLessThanOrEqual(100);
  });

  it("points at this npm package and version, run over stdio", () => {
    expect(serverJson.version).toBe(pkg.version);
    expect(serverJson.packages).toHaveLength(1);
    const [npm] = serverJson.packages;
    expect(npm).toMatchObject({
      registryType: "npm",
      identifier: pkg.name,
      version: pkg.version,
      transport: { type: "stdio" },
    });
  });

  it("names the package's mcpName, which the registry checks on publish", (ctx) => {
    if (pkg.mcpName === undefined) ctx.skip("package.json has no mcpName yet (proposed to the lead)");
    expect(pkg.mcpName).toBe(serverJson.name);
  });

  it("lists every environment variable the server reads over stdio, the key secret and every one optional", () => {
    const vars = Object.fromEntries(serverJson.packages[0].environmentVariables.map((v: { name: string }) => [v.name, v]));
    // The declarations name each setting's variable; the HTTP transport's (VECDB_HTTP_*) apply only with --http.
    const read = settingsOf("mcp")
      .flatMap((s) => (s.env ? [s.env] : []))
      .filter((name) => !name.startsWith("VECDB_HTTP_"));
    expect(Object.keys(vars).sort()).toEqual(read.sort());
    const secrets = ["PINECONE_API_KEY", "VECDB_EMBED_KEY", "VECDB_OTHER_API_KEY"];
    for (const name of secrets) expect(vars[name], name).toMatchObject({ isSecret: true, isRequired: false });
    for (const name of read.filter((n) => !secrets.includes(n))) {
      expect(vars[name], name).toMatchObject({ isSecret: false, isRequired: false });
    }
    // The defaults advertised are the server's own, and each is a value the server accepts.
    const loaded = loadConfig([], { VECDB_DATA_DIR: "/tmp/unused" });
    if (loaded.help) throw new Error("unexpected --help");
    const { config } = loaded;
    expect(vars.PINECONE_CONTROLLER_HOST.default).toBe(config.controllerUrl);
    expect(vars.PINECONE_API_VERSION.default).toBe(config.apiVersion);
    expect(vars.VECDB_TIMEOUT_MS.default).toBe(String(config.timeoutMs));
    expect(vars.VECDB_CONCURRENCY.default).toBe(String(config.concurrency));
    expect(vars.VECDB_RETRIES.default).toBe(String(config.retries));
    expect(vars.VECDB_LOG_LEVEL.default).toBe(config.logLevel);
    // The second service's host means something only beside its key.
    const companions: Record<string, Record<string, string>> = { VECDB_OTHER_HOST: { VECDB_OTHER_API_KEY: "pcsk_other_key_for_test" } };
    for (const v of Object.values(vars) as { name: string; default?: string; description?: string }[]) {
      expect(v.description, v.name).toBeTruthy();
      const env = { VECDB_DATA_DIR: "/tmp/unused", ...companions[v.name], [v.name]: v.default };
      if (v.default !== undefined) expect(() => loadConfig([], env), v.name).not.toThrow();
    }
  });
});
