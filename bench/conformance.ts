// The official MCP conformance suite (@modelcontextprotocol/conformance) against the built server over HTTP (both
// eras are on one endpoint), with the classification the suite's own README asks of a server that is not its fixture:
// scenarios that call the suite's fixture tools, prompts or test:// resources, or methods of capabilities this server
// does not declare (prompts, completions, resource subscriptions), are not applicable. Exits 1 when any other check failed.
//
//   node --import tsx bench/conformance.ts <dir where the suite is installed> [--spec-version 2026-07-28]
//
// (install it outside the repo: `npm install --prefix /tmp/conf @modelcontextprotocol/conformance@0.2.0-alpha.12`)
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot, serverBin } from "./lib.js";

const [suiteDir, ...rest] = process.argv.slice(2);
if (!suiteDir) throw new Error("usage: bench/conformance.ts <dir where @modelcontextprotocol/conformance is installed> [suite options]");
const suite = path.join(path.resolve(suiteDir), "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");

/** Why a failed check does not apply to this server, or undefined when it does. */
function notApplicable(message: string): string | undefined {
  if (/Tool test_\w+ not found/.test(message)) return "the suite's fixture tool";
  if (/Resource not found: test:\/\//.test(message)) return "the suite's fixture resource";
  if (/Method not found/.test(message)) return "a capability this server does not declare";
  return undefined;
}

const version = (JSON.parse(readFileSync(path.join(path.dirname(path.dirname(suite)), "package.json"), "utf8")) as { version: string }).version;
const data = mkdtempSync(path.join(tmpdir(), "vecdb-conformance-"));
const server = spawn(process.execPath, [serverBin, "--http", "--port", "0", "--insecure-http-no-token", "--toolsets", "all"], {
  env: { PATH: process.env.PATH ?? "", HOME: data, VECDB_DATA_DIR: path.join(data, "data") },
  stdio: ["ignore", "ignore", "pipe"],
});
try {
  const url = await new Promise<string>((resolve, reject) => {
    let err = "";
    server.stderr!.on("data", (c: Buffer) => {
      err += c.toString("utf8");
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    server.once("exit", (code) => reject(new Error(`the server exited with ${code}: ${err}`)));
  });
  const out = path.join(data, "results");
  const hook = path.join(repoRoot, "bench", "conformance-node20.mjs");
  await new Promise<void>((resolve) => {
    const run = spawn(process.execPath, ["--import", hook, suite, "server", "--url", url, "-o", out, ...rest], { stdio: ["ignore", "ignore", "inherit"] });
    run.once("exit", () => resolve());
  });
  let passed = 0;
  const failed: string[] = [];
  const skipped: string[] = [];
  for (const scenario of readdirSync(out)) {
    const checks = JSON.parse(readFileSync(path.join(out, scenario, "checks.json"), "utf8")) as { id: string; status: string; errorMessage?: string }[];
    for (const c of checks) {
      if (c.status === "SUCCESS") passed++;
      else if (c.status === "FAILURE") {
        const why = notApplicable(c.errorMessage ?? "");
        (why ? skipped : failed).push(`${c.id}: ${why ?? c.errorMessage}`);
      }
    }
  }
  process.stdout.write(
    `conformance ${version} ${rest.join(" ")}: ${passed} passed, ${failed.length} failed, ${skipped.length} not applicable\n` +
      [...failed.map((f) => `  FAILED ${f}`), ...skipped.map((s) => `  n/a ${s}`)].join("\n") +
      "\n",
  );
  process.exitCode = failed.length > 0 ? 1 : 0;
} finally {
  server.kill("SIGTERM");
  await new Promise((r) => server.once("exit", r));
  rmSync(data, { recursive: true, force: true });
}
