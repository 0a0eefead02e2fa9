// The shipped bin is the single-file bundle (scripts/bundle.mjs): it exists, what a server with an API key reads
// before answering holds neither the local service nor lmdb nor Parquet, and it answers initialize + tools/list.
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { BUNDLE, ensureBundle, ROOT as root } from "../helpers/bundle.js";
import { startServiceProcess } from "../helpers/local-service.js";

ensureBundle();
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

interface Meta { outputs: Record<string, { entryPoint?: string; imports: { path: string; kind: string }[]; inputs: Record<string, unknown> }> }
const meta = JSON.parse(readFileSync(join(dirname(BUNDLE), "bundle", "meta.json"), "utf8")) as Meta;

/** The files `vecdb-mcp` (the MCP server) loads on its way to answering: found by following its import statements. */
function startupFiles(): string[] {
  const seen = new Set<string>();
  const visit = (out: string) => {
    if (seen.has(out) || !meta.outputs[out]) return;
    seen.add(out);
    for (const imp of meta.outputs[out].imports) if (imp.kind === "import-statement") visit(imp.path);
  };
  visit("dist/vecdb-mcp.js");
  // src/cli.ts picks its branch by argv: the MCP server's branch is the dynamic import of src/main.ts.
  visit(Object.keys(meta.outputs).find((out) => meta.outputs[out].entryPoint === "src/main.ts")!);
  return [...seen];
}

describe("the bundle", () => {
  it("is the package's bin and is executable", () => {
    expect(pkg.bin["vecdb-mcp"]).toBe(relative(root, BUNDLE));
    expect(readFileSync(BUNDLE, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
  });

  it("keeps the local service, lmdb and Parquet out of the MCP server's startup path", () => {
    const files = startupFiles();
    expect(files.length).toBeGreaterThanOrEqual(2);
    const inputs = files.flatMap((out) => Object.keys(meta.outputs[out].inputs));
    expect(inputs).toContain("src/mcp/server.ts");
    expect(inputs.filter((i) => i.startsWith("src/local/") || /hyparquet|lmdb/.test(i) || i.endsWith("sources/parquet.ts"))).toEqual([]);
    // lmdb is external: only the local service's chunk imports it, never a startup file.
    for (const out of files) {
      expect(meta.outputs[out].imports.map((i) => i.path), out).not.toContain("lmdb");
      expect(readFileSync(join(root, out), "utf8"), out).not.toMatch(/from"lmdb"|from "lmdb"|hyparquet/);
    }
    // The slimmed dependencies (scripts/bundle-shims): undici and Ajv in chunks loaded later, zod English only.
    expect(inputs.filter((i) => /undici\/(index\.js|lib\/)/.test(i))).toEqual([]);
    expect(Object.values(meta.outputs).some((o) => Object.keys(o.inputs).some((i) => i.includes("undici/lib/dispatcher/agent.js")))).toBe(true);
    expect(inputs.filter((i) => /node_modules\/(ajv|ajv-formats|fast-uri)\//.test(i))).toEqual([]);
    expect(inputs.filter((i) => /zod\/v4\/locales\/(?!en\.js|vecdb-en-only\.js)/.test(i))).toEqual([]);
    // The API client is made on the first call that needs it (src/main.ts), and node:crypto is loaded on first use.
    expect(inputs.filter((i) => /^src\/api\/(?!(errors|redact)\.ts$)/.test(i))).toEqual([]);
    expect(inputs).not.toContain("builtin:node:crypto");
    for (const out of files) expect(meta.outputs[out].imports.map((i) => i.path), out).not.toContain("node:crypto");
    // No tool module, nor the zod → JSON Schema conversion of their schemas: tools/list comes from the catalogue the
    // build wrote, and each tool's module is a chunk of its own, loaded on the tool's first call (src/mcp/tool-catalog.ts).
    expect(inputs.filter((i) => /^tools\/(?!index\.ts$)/.test(i) || i === "src/mcp/tool-schemas.ts")).toEqual([]);
    const toolChunks = Object.values(meta.outputs).filter((o) => o.entryPoint?.startsWith("tools/"));
    expect(toolChunks.length).toBe(readdirSync(join(root, "tools"), { recursive: true }).filter((f) => String(f).endsWith(".ts")).length - 1);
    // …while the local service is still there, in a chunk of its own.
    expect(Object.values(meta.outputs).some((o) => o.entryPoint === "src/local/index.ts")).toBe(true);
    // The import check's worker is an entry of its own next to the chunks (started as ./check-worker.js), never loaded at startup.
    expect(meta.outputs["dist/bundle/check-worker.js"]?.entryPoint).toBe("src/ingest/check-worker.ts");
    expect(files).not.toContain("dist/bundle/check-worker.js");
    expect(inputs).not.toContain("src/ingest/check-worker.ts");
  });

  it("answers initialize and tools/list when spawned", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BUNDLE],
      env: { PATH: process.env.PATH ?? "", PINECONE_API_KEY: "bundle-test-key", PINECONE_CONTROLLER_HOST: "http://127.0.0.1:9" },
      stderr: "pipe",
    });
    const client = new Client({ name: "bundle-test", version: "0.0.0" });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: "vecdb-mcp", version: pkg.version });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["list_indexes", "list_collections", "create_collection", "upsert_vectors"]));
    } finally {
      await client.close();
    }
  });

  it("answers tools/list from the build's catalogue exactly as the tsc build does from the tool modules", async () => {
    const list = async (bin: string, args: string[]) => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [bin, ...args],
        env: { PATH: process.env.PATH ?? "", PINECONE_API_KEY: "bundle-test-key", PINECONE_CONTROLLER_HOST: "http://127.0.0.1:9" },
        stderr: "pipe",
      });
      const client = new Client({ name: "bundle-test", version: "0.0.0" });
      await client.connect(transport);
      try {
        return (await client.listTools()).tools;
      } finally {
        await client.close();
      }
    };
    // The bundle carries them (the tool catalogue scripts/bundle.mjs writes beside the chunks, named in one of them), so
    // the comparison below is not of the SDK with itself.
    const named = startupFiles().flatMap((out) => readFileSync(join(root, out), "utf8").match(/tool-catalog-\w+\.json/g) ?? []);
    expect(named).toHaveLength(1);
    expect(readFileSync(join(root, "dist", "bundle", named[0]), "utf8")).toContain('{"name":"upsert_vectors","title":');
    const unbundled = join(root, "dist", "src", "cli.js");
    for (const args of [[], ["--toolsets", "all", "--read-only"], ["--toolsets", "all", "--allow-destructive"]]) {
      const [prebuilt, converted] = await Promise.all([list(BUNDLE, args), list(unbundled, args)]);
      expect(prebuilt.length, args.join(" ")).toBeGreaterThanOrEqual(8);
      expect(prebuilt, args.join(" ")).toEqual(converted);
    }
  });

  it("speaks HTTP on the first call (undici is loaded then) and closes cleanly", async () => {
    const service = await startServiceProcess();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BUNDLE],
      env: { PATH: process.env.PATH ?? "", PINECONE_API_KEY: service.apiKey, PINECONE_CONTROLLER_HOST: service.controlUrl },
      stderr: "pipe",
    });
    const client = new Client({ name: "bundle-test", version: "0.0.0" });
    try {
      await client.connect(transport);
      const result = await client.callTool({ name: "list_indexes", arguments: {} });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ indexes: [] });
    } finally {
      await client.close();
      await service.stop();
      rmSync(service.dataDir, { recursive: true, force: true });
    }
  });
});
