// server.json for the MCP registry (schema 2025-12-11) agrees with package.json and with the settings the server reads.
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
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

  it("lists every environment variable the server reads, the key secret and optional", () => {
    const vars = Object.fromEntries(serverJson.packages[0].environmentVariables.map((v: { name: string }) => [v.name, v]));
    expect(Object.keys(vars).sort()).toEqual(["PINECONE_API_KEY", "PINECONE_API_VERSION", "PINECONE_CONTROLLER_HOST", "VECDB_DATA_DIR"]);
    expect(vars.PINECONE_API_KEY).toMatchObject({ isSecret: true, isRequired: false });
    for (const name of ["PINECONE_CONTROLLER_HOST", "PINECONE_API_VERSION", "VECDB_DATA_DIR"]) {
      expect(vars[name]).toMatchObject({ isSecret: false, isRequired: false });
    }
    // The defaults advertised are the server's own.
    const loaded = loadConfig([], { VECDB_DATA_DIR: "/tmp/unused" });
    if (loaded.help) throw new Error("unexpected --help");
    expect(vars.PINECONE_CONTROLLER_HOST.default).toBe(loaded.config.controllerUrl);
    expect(vars.PINECONE_API_VERSION.default).toBe(loaded.config.apiVersion);
    for (const v of Object.values(vars) as { description?: string }[]) expect(v.description).toBeTruthy();
  });
});
