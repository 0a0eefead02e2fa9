// The server's version as initialize reports it: package.json's, found from wherever this module was bundled or built.
import { existsSync, readFileSync } from "node:fs";

let version: string | undefined;

/** Read once: an HTTP server calls createServer for every session. */
export function packageVersion(): string {
  version ??= readPackageVersion();
  return version;
}

function readPackageVersion(): string {
  // The bundle's chunks, src/mcp/server.ts (tsx) and dist/src/mcp/server.js sit at different depths below package.json.
  for (const rel of ["../package.json", "../../package.json", "../../../package.json"]) {
    const url = new URL(rel, import.meta.url);
    if (existsSync(url)) {
      const pkg = JSON.parse(readFileSync(url, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "vecdb-mcp" && pkg.version) return pkg.version;
    }
  }
  return "0.0.0";
}
