// The package's version, read from its package.json (for --version and the server's name in initialize).
import { existsSync, readFileSync } from "node:fs";

let version: string | undefined;

/** Read once. */
export function packageVersion(): string {
  version ??= readPackageVersion();
  return version;
}

function readPackageVersion(): string {
  // The bundle (dist/vecdb-mcp.js) and its chunks, the sources (tsx) and the tsc output sit at different depths below package.json.
  for (const rel of ["../package.json", "../../package.json", "../../../package.json"]) {
    const url = new URL(rel, import.meta.url);
    if (existsSync(url)) {
      const pkg = JSON.parse(readFileSync(url, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "vecdb-mcp" && pkg.version) return pkg.version;
    }
  }
  return "0.0.0";
}
