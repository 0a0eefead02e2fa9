// The published package, as a user gets it: `npm pack`, install the tarball into an empty directory (from the npm
// cache the README's `npm ci` filled, by the lock file's hashes), start it with `npx` as an MCP server over stdio on
// the embedded local service.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CORE_TOOLS, binTarget, cleanEnv, connectStdio, consumerProject, pkg, publishProblems, root, run, serverProblems } from "./helpers.js";

interface PackResult { filename: string; files: { path: string }[] }

const problems = [...publishProblems(), ...serverProblems()];
const title = problems.length ? `npm pack → install → npx (skipped: ${problems.join("; ")})` : "npm pack → install → npx";

describe.skipIf(problems.length > 0)(title, () => {
  let work: string;
  let packed: PackResult;
  let paths: string[];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "vecdb-pack-"));
    // --ignore-scripts: the tests run on what `npm run build` made; a prepack build would only repeat it.
    const out = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], root);
    packed = (JSON.parse(out) as PackResult[])[0];
    paths = packed.files.map((f) => f.path);
  });

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("holds the built bin, package.json and README, and nothing a user does not run", () => {
    expect(paths).toContain("package.json");
    expect(paths).toContain(binTarget());
    const unwanted = paths.filter(
      (p) =>
        /^(test|bench|scripts|src|tools|dist\/test|dist\/bench|\.ci|\.github|node_modules)\//.test(p) ||
        /\.ts$/.test(p) && !/\.d\.ts$/.test(p) ||
        /\.map$/.test(p) ||
        /(^|\/)\.env/.test(p) ||
        /(^|\/)(\.data|data)\//.test(p) ||
        /\.mdb$/.test(p) ||
        /(^|\/)api-key$/.test(p) ||
        /\.(tgz|mcpb)$/.test(p) ||
        /^(tsconfig\.json|vitest\.config\.ts|package-lock\.json|manifest\.json|server\.json)$/.test(p),
    );
    expect(unwanted).toEqual([]);
  });

  it("installs from the npm cache into an empty directory and answers tools/list through npx", async () => {
    const project = join(work, "consumer");
    const dataDir = join(work, "data");
    mkdirSync(project);
    const consumer = consumerProject(`../${packed.filename}`);
    writeFileSync(join(project, "package.json"), JSON.stringify(consumer.packageJson));
    writeFileSync(join(project, "package-lock.json"), JSON.stringify(consumer.packageLock, null, 2));
    await run("npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund"], project);

    const server = await connectStdio({
      command: "npx",
      args: ["--offline", "--no-install", "vecdb-mcp"],
      cwd: project,
      env: cleanEnv({ VECDB_DATA_DIR: dataDir, VECDB_LOCAL_IDLE_S: "1" }),
    });
    try {
      const { tools } = await server.client.listTools();
      const names = tools.map((t) => t.name);
      for (const name of CORE_TOOLS) expect(names).toContain(name);

      // The installed copy's own native storage (lmdb) works: the embedded service answers a real call.
      const result = await server.client.callTool({ name: "list_indexes", arguments: {} });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    } finally {
      await server.close();
    }
  });

  it("was packed from the version in package.json", () => {
    expect(packed.filename).toBe(`${pkg.name}-${pkg.version}.tgz`);
  });
});
