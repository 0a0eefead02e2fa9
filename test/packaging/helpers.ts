// What the packaging tests share: the project's files, a check that package.json is ready to publish,
// child processes that must succeed, and an MCP client over stdio.
import { execFile, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

export function readJson<T = any>(path: string): T {
  return JSON.parse(readFileSync(resolve(root, path), "utf8")) as T;
}

export const pkg = readJson("package.json");
export const serverJson = readJson("server.json");
export const manifest = readJson("manifest.json");

/** The first four tools (indexes, collections, upsert): every build of the server lists them. */
export const CORE_TOOLS = ["list_indexes", "list_collections", "create_collection", "upsert_vectors"];

/** The file the `vecdb-mcp` bin runs, relative to the project, or undefined when package.json names none. */
export function binTarget(): string | undefined {
  const bin = typeof pkg.bin === "string" ? pkg.bin : pkg.bin?.["vecdb-mcp"];
  return typeof bin === "string" ? bin.replace(/^\.\//, "") : undefined;
}

/** Why the project cannot be packed and run as a published package yet; empty when it can. */
export function publishProblems(): string[] {
  const problems: string[] = [];
  const bin = binTarget();
  if (!bin) problems.push('package.json has no bin "vecdb-mcp"');
  else if (!existsSync(join(root, bin))) problems.push(`bin ${bin} does not exist (not built, or the wrong path)`);
  if (!Array.isArray(pkg.files)) problems.push("package.json has no files list");
  if (typeof pkg.engines?.node !== "string") problems.push("package.json has no engines.node");
  if (pkg.mcpName !== serverJson.name) problems.push(`package.json mcpName is ${JSON.stringify(pkg.mcpName)}, not ${serverJson.name}`);
  return problems;
}

/**
 * Why the built MCP server cannot run yet; empty when it can. `--help` loads every module of the server, so a
 * missing or broken build shows here, and the packaging tests skip (naming why) instead of failing for it.
 */
export function serverProblems(): string[] {
  const entry = manifest.server.entry_point as string;
  if (!existsSync(join(root, entry))) return [`${entry} is not built`];
  const probe = spawnSync(process.execPath, [join(root, entry), "--help"], { encoding: "utf8", timeout: 15_000 });
  if (probe.status === 0) return [];
  const why = probe.stderr.split("\n").find((line) => /Error|vecdb-mcp:/.test(line)) ?? `exit ${probe.status}`;
  return [`the built server does not start (${why.trim()})`];
}

/**
 * A consumer project that depends on the packed tarball, with a lock file naming exactly the versions (and integrity
 * hashes) of the runtime dependencies this suite tested: the project's own package-lock.json entries that are not
 * dev-only. With it, `npm ci --prefer-offline` takes every tarball from the npm cache by its hash — the README's
 * `npm ci` put them there — and asks the registry only for one the cache lacks. (An install that resolves `lmdb@^3`
 * by range instead needs the registry's metadata of each package, which an install from a lock file never caches.)
 */
export function consumerProject(tarballFromConsumer: string): { packageJson: object; packageLock: object } {
  const lock = readJson<{ packages: Record<string, { dev?: boolean; devOptional?: boolean }> }>("package-lock.json");
  const spec = `file:${tarballFromConsumer}`;
  const packages: Record<string, unknown> = {
    "": { name: "consumer", dependencies: { [pkg.name]: spec } },
    [`node_modules/${pkg.name}`]: { version: pkg.version, resolved: spec, dependencies: pkg.dependencies, bin: pkg.bin, engines: pkg.engines },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path !== "" && !entry.dev && !entry.devOptional) packages[path] = entry;
  }
  return {
    packageJson: { name: "consumer", private: true, dependencies: { [pkg.name]: spec } },
    packageLock: { name: "consumer", lockfileVersion: 3, requires: true, packages },
  };
}

const execFileP = promisify(execFile);

/** Runs a command; resolves with its stdout, rejects with its stderr and stdout in the message. */
export async function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  try {
    const { stdout } = await execFileP(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${command} ${args.join(" ")} failed: ${e.message}\n${e.stderr ?? ""}\n${e.stdout ?? ""}`);
  }
}

/** The environment of this process without any setting that would point the server at a hosted service. */
export function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith("PINECONE_") && !k.startsWith("VECDB_")) env[k] = v;
  }
  return { ...env, ...extra };
}

export interface StdioServer {
  client: Client;
  stderr(): string;
  close(): Promise<void>;
}

/** Starts a server over stdio and completes `initialize`. */
export async function connectStdio(params: { command: string; args: string[]; cwd?: string; env: Record<string, string> }): Promise<StdioServer> {
  const transport = new StdioClientTransport({ ...params, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const client = new Client({ name: "vecdb-mcp-packaging-test", version: "0.0.0" });
  try {
    await client.connect(transport);
  } catch (err) {
    await transport.close().catch(() => {});
    throw new Error(`the server did not initialize: ${(err as Error).message}\nstderr:\n${stderr}`);
  }
  return { client, stderr: () => stderr, close: () => client.close() };
}
